/** The questions a new user tried on the embedded default (issue 11), answered with verses before the gate. */
export const OFF_TOPIC_EXAMPLES = [
  "como fazer um bolo de chocolate?",
  "qual a cotação do dólar hoje?",
  "quem ganhou a copa do mundo de 2002?",
  "me explique a teoria da relatividade",
] as const;

/** Worldly questions a pastor answers from the Bible (issue 11): the gate must keep them. */
export const WORLDLY_PASTORAL_EXAMPLES = [
  "perdi meu emprego e estou com medo",
  "o que Jesus disse sobre pagar impostos?",
  "posso tomar vinho sendo cristão?",
  "estou endividado e desesperado",
] as const;
