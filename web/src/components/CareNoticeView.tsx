import type { CareNotice } from "../lib/api";

/**
 * Who to call, above the answer, when the server found the writer at risk (src/core/reading/crisis.ts):
 * each number a `tel:` link, so one tap on a phone calls it. When the answer below opens with
 * the same words of sympathy as the notice ("Sinto muito…"), the notice leaves its own out, so
 * they are not read twice.
 */
export function CareNoticeView({ notice, answer = "" }: { notice: CareNotice; answer?: string }) {
  const text = withoutRepeatedOpening(notice.text, answer);
  return (
    <section className="care-box" role="alert" aria-label={notice.title} data-care={notice.kind}>
      <p className="care-title">{notice.title}</p>
      {text !== "" && <p className="care-text">{text}</p>}
      <ul className="care-contacts">
        {notice.contacts.map((contact) => (
          <li key={contact.phone}>
            <a className="care-phone" href={`tel:${contact.phone}`} aria-label={`Ligar para ${contact.phone}, ${contact.name}`}>
              {contact.phone}
            </a>
            <span className="care-contact">
              <strong>{contact.name}</strong>
              {contact.detail !== "" && <span className="care-detail">{contact.detail}</span>}
              {contact.url && (
                <a className="care-link" href={contact.url} target="_blank" rel="noopener noreferrer">
                  {new URL(contact.url).host}
                </a>
              )}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function openingWords(text: string): string {
  return text
    .trim()
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word !== "")
    .slice(0, 2)
    .join(" ");
}

/** The notice's text without its first sentence when the answer's first sentence opens with the same two words. */
export function withoutRepeatedOpening(notice: string, answer: string): string {
  const match = /^[^.!?]*[.!?]\s*/u.exec(notice);
  if (!match) return notice;
  const opening = openingWords(match[0]);
  if (opening.split(" ").length < 2 || opening !== openingWords(answer)) return notice;
  return notice.slice(match[0].length).trim();
}
