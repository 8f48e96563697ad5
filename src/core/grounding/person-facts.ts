/** A person's family as the knowledge index holds it, said in one Portuguese sentence for an answer's opening. Pure. */

/** Names joined as Portuguese lists them ("A, B e C"). */
function joinList(items: readonly string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} e ${items[items.length - 1]!}`;
}

/**
 * The facts of a person the data holds, as one Portuguese sentence ("Arão era filho de Anrão e
 * Joquebede, irmão de Moisés e Miriã…"), in the person's gender when the data gives it; none
 * when the data holds no family.
 */
export function personFactsSentence(label: string, gender: "m" | "f" | "", facts: { father: string[]; mother: string[]; siblings: string[]; partners: string[]; children: string[] }): string | undefined {
  const f = gender === "f";
  const names = (list: readonly string[]) => joinList(list.slice(0, 4)) + (list.length > 4 ? " e outros" : "");
  const parents = [...facts.father, ...facts.mother];
  const parts = [
    parents.length > 0 ? `${f ? "filha" : "filho"} de ${names(parents)}` : "",
    facts.siblings.length > 0 ? `${f ? "irmã" : "irmão"} de ${names(facts.siblings)}` : "",
    facts.partners.length > 0 ? `${gender === "" ? "casado(a)" : f ? "esposa" : "marido"} de ${names(facts.partners)}` : "",
    facts.children.length > 0 ? `${gender === "" ? "pai ou mãe" : f ? "mãe" : "pai"} de ${names(facts.children)}` : "",
  ].filter(Boolean);
  if (parts.length === 0) return undefined;
  return `${label} era ${joinList(parts)}.`;
}
