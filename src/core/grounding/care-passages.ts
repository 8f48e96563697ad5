/**
 * The passages a person at risk (core/reading/crisis.ts) is answered over. A module of its
 * own: the search workers resolve them and never load the classifiers the reading needs.
 */
import type { CrisisKind } from "../reading/crisis.js";

/**
 * The passages a person at risk is answered over, in order: chosen, not searched (see
 * crisis.ts), resolved by reference like any explicit reference. Their neighbours, which the
 * model also sees, were read for the same purpose.
 */
export const CARE_PASSAGES: Readonly<Record<CrisisKind, readonly string[]>> = {
  self_harm: ["Salmos 34:18", "Mateus 11:28", "Isaías 41:10", "Salmos 147:3", "1 Pedro 5:7", "Jeremias 29:11"],
  violence: ["Salmos 9:9", "Salmos 46:1", "Salmos 34:18", "Isaías 41:10", "Salmos 27:1", "Deuteronômio 31:8"],
};

/** The query that resolves a crisis' passages (explicit references, so by metadata). */
export function carePassagesQuery(kind: CrisisKind): string {
  return CARE_PASSAGES[kind].join("; ");
}
