/**
 * The questions people ask of the Bible's people, words, practices, places and events ("quem foi
 * Melquisedeque?", "o que é a Páscoa?", "é pecado fazer tatuagem?", "onde fica Betel?", "o que
 * aconteceu no Pentecostes?"), answered from the field's open data (`core/knowledge`: Theographic,
 * Easton's, Torrey's and Nave's, bridged into Portuguese). The message's reading gives the frame
 * and its subject (`reading/kinds.ts`); `resolveKnowledge` finds what the subject names and which
 * profile the question takes; the `knowledge` source adds that entry's key verses (where a person
 * enters the story and acts, the verses a dictionary or a topical index cites first) to the
 * fusion. Pure.
 */
import { analyze, foldAccents, tokenize } from "../../analysis/index.js";
import type { AnyMatch, KnowledgeIndex, PersonMatch } from "../../knowledge/knowledge-index.js";
import type { KnowledgeFrame } from "../../reading/kinds.js";
import type { Candidate, CandidateSource } from "./stage.js";
import { stageOn, type KnowledgeFinding, type VerseContext, type VerseCorpus } from "./verse-context.js";

export type { KnowledgeFinding };

/** A subject of more content words than this is a situation or a story told, not a name or a term. */
const MAX_SUBJECT_WORDS = 4;
/** The share of the subject's content words a match must hold ("beber cerveja": "cerveja" holds half). */
const MIN_SUBJECT_SHARE = 0.5;

/** A subject's words that carry content, folded, stopwords out (as the match's `matched` is compared). */
function contentWords(text: string): string[] {
  return tokenize(text);
}

/** Matches below this confidence are not taken. */
const MIN_CONFIDENCE = 0.5;
/** A name a person or place is matched by as the corpus prints it, its spelling, an English name or a typo of one. */
const NAME_WAYS = new Set(["name", "spelling", "english", "typo"]);
const EXACT_NAME_WAYS = new Set(["name", "spelling", "english"]);
/** A term matched by a spelling the dictionary does not have ("Nefilins", "Yahweh") names only the Bible's. */
const FOREIGN_WAYS = new Set(["spelling", "english", "typo"]);

const PROFILE_OF: Readonly<Record<KnowledgeFrame, KnowledgeFinding["profile"]>> = {
  who: "person",
  where: "place",
  happened: "event",
  what: "definition",
  conduct: "practice",
  property: "definition",
};

/**
 * What a question's subject names, by what its frame asks: a person for "quem foi", a place for
 * "onde fica", an event (or the feast or place it happened at) for "o que aconteceu", a term
 * (or a name) for "o que é", a practice for "é pecado". Undefined when nothing is named surely.
 */
export function resolveKnowledge(index: KnowledgeIndex, frame: KnowledgeFrame, subject: string, corpus: Pick<VerseCorpus, "lexical">): KnowledgeFinding | undefined {
  // Two-letter words ("El", "de") name nothing by themselves: "El Shaddai" is not "El-Parã".
  const words = contentWords(subject).filter((word) => word.length > 2);
  // A subject told at length ("é errado fingir que estou trabalhando quando…", "quem era o menino que
  // ouvia chamarem o seu nome…") is a situation or a story, not a name or a term: left to the other stages.
  if (words.length === 0 || words.length > MAX_SUBJECT_WORDS) return undefined;
  // "o sentido da minha vida" is the asker's own life, not a term.
  if (/(?:^|[^\p{L}])(?:meu|minha|meus|minhas|mim|eu|comigo)(?![\p{L}])/iu.test(subject)) return undefined;
  const share = (match: AnyMatch) => {
    const matched = new Set(contentWords(match.matched).filter((word) => word.length > 2));
    return words.filter((word) => matched.has(word)).length / words.length;
  };
  const covers = (match: AnyMatch) => share(match) >= MIN_SUBJECT_SHARE;
  const sure = <M extends AnyMatch>(matches: readonly M[], ways?: ReadonlySet<string>) =>
    matches.find((match) => match.confidence >= MIN_CONFIDENCE && match.how !== "salient" && match.verses.length > 0 && (!ways || ways.has(match.how)) && covers(match));
  // For "o que é X", a name is a second guess: never one X only resembles ("El Shaddai" is not "Zabai").
  const names = () => sure(index.person(subject), EXACT_NAME_WAYS) ?? sure(index.place(subject), EXACT_NAME_WAYS);
  const term = () => sure(index.term(subject));
  const order: (() => AnyMatch | undefined)[] =
    frame === "who" ? [() => sure(index.person(subject), NAME_WAYS), term]
      : frame === "where" ? [() => sure(index.place(subject), NAME_WAYS), () => sure(index.event(subject)), term]
        : frame === "happened" ? [() => sure(index.event(subject)), term, () => sure(index.place(subject), NAME_WAYS)]
          : frame === "what" ? [term, capitalised(subject) ? names : () => undefined, () => sure(index.event(subject))]
            : [term];
  // The first match of the frame's order, unless a later one holds more of the subject, or as much
  // of it by a proper name where the first holds a common word: "monte Sinai" is the place Sinai,
  // not the word "monte". ("O que era Neustã" asks for a thing: the term keeps its place.)
  let match: AnyMatch | undefined;
  for (const find of order) {
    const found = find();
    if (!found) continue;
    if (!match || share(found) > share(match) || (frame !== "what" && share(found) === share(match) && isName(found) && !isName(match))) match = found;
    // Nothing later can take the place of a match that holds the whole subject and cannot lose a tie.
    if (share(match) === 1 && (frame === "what" || isName(match))) break;
  }
  if (!match) return undefined;
  const profile = match.kind === "person" ? "person" : match.kind === "place" ? "place" : match.kind === "event" ? "event" : PROFILE_OF[frame];
  const finding: KnowledgeFinding = { frame, subject, profile, match, named: namedByCorpus(match, corpus) };
  const keep = keepReason(match, subject);
  return keep ? { ...finding, keep } : finding;
}

/** A person or place matched by its name (as printed, spelled otherwise, in English or mistyped). */
function isName(match: AnyMatch): boolean {
  return (match.kind === "person" || match.kind === "place") && NAME_WAYS.has(match.how);
}

/** Whether the corpus has every word the subject was matched by. */
function namedByCorpus(match: AnyMatch, corpus: Pick<VerseCorpus, "lexical">): boolean {
  if (match.kind !== "term") return true;
  const lexical = corpus.lexical;
  if (!lexical) return true;
  const stems = analyze(match.matched);
  return stems.length > 0 && stems.every((stem) => lexical.index.documentFrequency(stem) > 0);
}

/**
 * A name only the Bible gives keeps the question in scope whatever the gate's words say: a
 * person or place every capitalised word of the subject belongs to ("Melquisedec", not "Paulo
 * Freire"), or a term matched by a spelling the dictionary lacks ("Nefilins", "Yahweh").
 */
function keepReason(match: AnyMatch, subject: string): string | undefined {
  if (isName(match)) {
    const matched = new Set(match.matched.split(/\s+/u).map((word) => word.toLowerCase()));
    const capitals = subject.match(/\p{Lu}\p{L}*/gu) ?? [];
    if (capitals.every((word) => matched.has(word.toLowerCase()))) return `um nome da Bíblia: ${match.label}`;
  }
  if (match.kind === "term" && FOREIGN_WAYS.has(match.how)) return `um termo da Bíblia: ${match.label}`;
  // A term the asker writes as a name ("Jeová", "El Shaddai", "Armagedom"), matched surely.
  if (match.kind === "term" && match.confidence >= 0.8 && writtenAsName(match.matched, subject)) return `um nome da Bíblia: ${match.label}`;
  return undefined;
}

/** Whether the subject writes the matched words capitalised. */
function writtenAsName(matched: string, subject: string): boolean {
  const capitals = new Set((subject.match(/\p{Lu}\p{L}*/gu) ?? []).map((word) => foldAccents(word.toLowerCase())));
  const words = matched.split(/\s+/u).filter((word) => word.length > 2);
  return words.length > 0 && words.every((word) => capitals.has(foldAccents(word.toLowerCase())));
}

function capitalised(subject: string): boolean {
  return /\p{Lu}/u.test(subject);
}

/** The share of the knowledge list's weight a question of a subject's quality gives it. */
const PROPERTY_SHARE = 1 / 3;

/** How many of an entry's key verses join the fusion. */
const KNOWLEDGE_DEPTH = 10;

/** The `knowledge` source: the key verses of what the question names, in the primary source. */
export const knowledgeSource: CandidateSource<VerseContext> = {
  id: "knowledge",
  candidates: (context) => {
    const finding = context.knowledge;
    const source = context.corpus.primarySource;
    if (!finding || !source || !stageOn(context, "knowledge")) return undefined;
    const items: Candidate[] = [];
    for (const id of finding.match.verses.slice(0, KNOWLEDGE_DEPTH)) {
      const [book, cv] = id.split(" ");
      const [chapter, verse] = (cv ?? "").split(":").map(Number);
      const doc = context.corpus.docAt(source, book!, chapter!, verse!);
      if (doc !== undefined && context.corpus.verses[doc]!.text !== "" && !items.some((item) => item.doc === doc)) items.push({ doc });
    }
    // A quality asked of the subject ("A Bíblia é confiável?") is answered by the question's own
    // words first: the entry only lends its verses, as one list among the others.
    const weight = finding.frame === "property" ? context.settings.knowledgeWeight * PROPERTY_SHARE : context.settings.knowledgeWeight;
    return { items, weight, detail: { frame: finding.frame, subject: finding.subject, found: `${finding.match.kind}: ${finding.match.label}`, how: finding.match.how, confidence: finding.match.confidence, named: finding.named } };
  },
};

/** The facts of a person the data holds (whose child, sibling, spouse), for an answer's opening: never more than the data says. */
export function personFacts(match: PersonMatch): { father: string[]; mother: string[]; siblings: string[]; partners: string[]; children: string[] } {
  const names = (members: readonly { name: string }[]) => [...new Set(members.map((member) => member.name))];
  return {
    father: names(match.family.father),
    mother: names(match.family.mother),
    siblings: names(match.family.siblings),
    partners: names(match.family.partners),
    children: names(match.family.children),
  };
}
