export { foldAccents } from "./fold.js";
export { isStopword } from "./stopwords.js";
export { stemPortuguese } from "./stem.js";
export { ANALYZER_VERSION, SHORT_STEM_RULE, analyze, analyzeTokens, analyzeWord, splitWords, tokenize } from "./analyze.js";
export { AccentTable, buildAccentRestorer, corpusAccentRestorer, restoreAccentsIn } from "./accents.js";
export type { AccentRestorer, AnalyzedToken } from "./analyze.js";
