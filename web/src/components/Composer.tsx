import { forwardRef, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { formatNumber } from "../lib/status-text";

export const MAX_QUESTION_CHARS = 4000;
const SHOW_COUNTER_FROM = 3500;

/**
 * The question box: Enter sends, Shift+Enter starts a new line. While an answer streams the box
 * stays usable (the next question can be written; it is sent once the answer ends) and
 * "Parar" aborts the answer.
 */
export const Composer = forwardRef<
  HTMLTextAreaElement,
  { value: string; onChange(value: string): void; onSend(): void; onStop(): void; streaming: boolean; placeholder?: string; tools?: ReactNode }
>(function Composer({ value, onChange, onSend, onStop, streaming, placeholder = "Sua pergunta…", tools }, ref) {
  const length = value.trim().length;
  const tooLong = length > MAX_QUESTION_CHARS;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!streaming && length > 0) onSend();
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === "Enter" && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      if (!streaming && length > 0) onSend();
    }
  };
  return (
    <form className="composer" onSubmit={submit} aria-label="Fazer uma pergunta" data-streaming={streaming ? "true" : "false"}>
      <label htmlFor="pergunta" className="visually-hidden">
        Sua pergunta
      </label>
      <div className="composer-box">
        {tools}
        <textarea
          id="pergunta"
          ref={ref}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          rows={1}
          placeholder={placeholder}
          aria-describedby="pergunta-dica"
          autoComplete="off"
          spellCheck
        />
        {streaming ? (
          <button type="button" className="button stop" onClick={onStop}>
            <span aria-hidden="true">■</span> Parar
          </button>
        ) : (
          <button type="submit" className="button primary" disabled={length === 0}>
            Enviar
          </button>
        )}
      </div>
      <p id="pergunta-dica" className="composer-hint">
        {streaming ? "Respondendo… Você já pode escrever a próxima pergunta; “Parar” interrompe a resposta." : "Enter envia · Shift+Enter quebra a linha"}
        {length >= SHOW_COUNTER_FROM && (
          <span className={tooLong ? "counter over" : "counter"}>
            {" · "}
            {formatNumber(length)} de {formatNumber(MAX_QUESTION_CHARS)} caracteres
            {tooLong ? " (longa demais)" : ""}
          </span>
        )}
      </p>
    </form>
  );
});
