import { forwardRef, type FormEvent, type KeyboardEvent, type ReactNode } from "react";
import { formatNumber } from "../lib/status-text";

export const MAX_QUESTION_CHARS = 4000;
const SHOW_COUNTER_FROM = 3500;

/**
 * The question box: Enter sends, Shift+Enter starts a new line; while an answer streams the
 * box is disabled and "Parar" aborts it.
 */
export const Composer = forwardRef<
  HTMLTextAreaElement,
  { value: string; onChange(value: string): void; onSend(): void; onStop(): void; streaming: boolean; placeholder?: string; tools?: ReactNode }
>(function Composer({ value, onChange, onSend, onStop, streaming, placeholder = "Escreva sua pergunta…", tools }, ref) {
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
    <form className="composer" onSubmit={submit} aria-label="Fazer uma pergunta">
      {tools}
      <label htmlFor="pergunta" className="visually-hidden">
        Sua pergunta
      </label>
      <div className="composer-box">
        <textarea
          id="pergunta"
          ref={ref}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          onKeyDown={onKeyDown}
          disabled={streaming}
          rows={2}
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
        {streaming ? "Respondendo… Use “Parar” para interromper." : "Enter envia · Shift+Enter quebra a linha"}
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
