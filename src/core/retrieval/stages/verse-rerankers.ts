/**
 * The Bible's rerankers, in the order they run on the fused ranking: the reader prior (a verse
 * readers link to more moves up, by the profile's strength), a verse the cross references
 * lifted kept below the hit that linked it, and a confident lexical hit (a quotation) kept
 * first. The lexical-only quota, which every collection has, runs last (`unit-search.ts`). Pure.
 */
import { belowTheirSeeds } from "../fusion.js";
import type { FusedUnit, Reranker } from "./stage.js";
import { stageOn, type VerseContext } from "./verse-context.js";
import { linked, quotedShare } from "./verse-sources.js";
import { analyze } from "../../analysis/index.js";

/** A message about the asker is a quotation only when the first lexical hit holds this share of its words. */
const QUOTED_SHARE = 0.8;

export const readerPrior: Reranker<VerseContext> = {
  id: "reader-prior",
  rerank: (ranked, context) => {
    const prior = context.corpus.prior;
    const weight = context.profile.priorWeight;
    if (!prior || weight <= 0 || !stageOn(context, "reader-prior")) return { ranked };
    return { ranked: withPrior(ranked, prior, weight), detail: { weight } };
  },
};

/** Each fused score × (1 + weight × the unit's prior), ties kept in the order they came. */
export function withPrior(ranked: readonly FusedUnit[], prior: Float32Array, weight: number): FusedUnit[] {
  return ranked
    .map((item, order) => ({ item: { ...item, score: item.score * (1 + weight * prior[item.item.doc]!) }, order }))
    .sort((a, b) => b.item.score - a.item.score || a.order - b.order)
    .map(({ item }) => item);
}

/**
 * A verse the cross-reference list lifted never ranks above the verse that linked it: the link
 * is evidence by association, weaker than the direct hit it came from (measured: "amar os
 * inimigos" put John 14:15, linked from the John 14 verses it found, above Mt 5:44).
 */
export const belowSeeds: Reranker<VerseContext> = {
  id: "below-seeds",
  rerank: (ranked, context) => {
    const lifted = linked(context);
    if (lifted.length === 0 || !stageOn(context, "below-seeds")) return { ranked };
    const keyOf = (doc: number) => context.corpus.keyAt(doc);
    return { ranked: belowTheirSeeds(ranked, new Map(lifted.map((item) => [keyOf(item.doc), keyOf(item.seed)])), (item) => item.via.includes("crossref")) };
  },
};

/** BM25's first hit kept first when it scores the profile's ratio times the second's (a quotation). */
export const confidentLexical: Reranker<VerseContext> = {
  id: "confident-lexical",
  rerank: (ranked, context) => {
    const ratio = context.profile.confidentLexicalRatio;
    const [best, second] = context.first.lexical;
    if (ratio <= 0 || !best || !stageOn(context, "confident-lexical")) return { ranked };
    if (second && best.score < ratio * second.score) return { ranked, detail: { ratio, confident: false } };
    if (context.profile.confidentNeedsQuote) {
      const terms = new Set(analyze(context.asked));
      const quoted = quotedShare(terms, { lexical: [best] }, (hit) => hit.matchedTerms);
      if (quoted < QUOTED_SHARE) return { ranked, detail: { ratio, confident: false, quoted: Math.round(quoted * 1000) / 1000 } };
    }
    const at = ranked.findIndex((item) => item.item.doc === best.doc);
    if (at <= 0) return { ranked, detail: { ratio, confident: true } };
    return { ranked: [ranked[at]!, ...ranked.slice(0, at), ...ranked.slice(at + 1)], detail: { ratio, confident: true } };
  },
};

export const VERSE_RERANKERS: readonly Reranker<VerseContext>[] = [readerPrior, belowSeeds, confidentLexical];
