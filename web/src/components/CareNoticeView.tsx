import type { CareNotice } from "../lib/api";

/**
 * Who to call, above the answer, when the server found the writer at risk (src/core/reading/crisis.ts):
 * each number a `tel:` link, so one tap on a phone calls it.
 */
export function CareNoticeView({ notice }: { notice: CareNotice }) {
  return (
    <section className="care-box" role="alert" aria-label={notice.title} data-care={notice.kind}>
      <p className="care-title">{notice.title}</p>
      <p className="care-text">{notice.text}</p>
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
