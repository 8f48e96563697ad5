/**
 * The chat shorthand and spoken forms of Brazilian Portuguese ("vc", "pq", "dnv", "tô", "pra"),
 * folded, each with the words it stands for. One list for every reader of a message: the crisis
 * reading spells them out (core/reading/crisis.ts), the out-of-scope gate takes them as
 * function words, never as a word the Bible lacks (core/retrieval/scope/features.ts). Pure data.
 */
export const CHAT_SHORTHAND: Readonly<Record<string, string>> = {
  // pronouns and verbs of being
  vc: "voce", vcs: "voces", ce: "voce", to: "estou", tou: "estou", ta: "esta", tava: "estava", tavam: "estavam",
  tamo: "estamos", eh: "e", vo: "vou", qro: "quero", qria: "queria", ne: "nao e",
  // little words
  q: "que", c: "com", n: "nao", nn: "nao", naum: "nao", pq: "porque", oq: "o que", pra: "para", pras: "para as",
  pro: "para o", pros: "para os", dum: "de um", duma: "de uma", duns: "de uns", dumas: "de umas",
  cmg: "comigo", ctg: "contigo", kd: "cade",
  // how much, how often, when
  mt: "muito", mto: "muito", mta: "muita", mts: "muitos", tb: "tambem", tbm: "tambem", tmb: "tambem", msm: "mesmo",
  td: "tudo", tds: "todos", ngm: "ninguem", nd: "nada", qq: "qualquer", qlq: "qualquer", qlqr: "qualquer",
  qdo: "quando", qnd: "quando", qndo: "quando", qto: "quanto", qtos: "quantos", qtas: "quantas",
  hj: "hoje", agr: "agora", dps: "depois", dnv: "de novo",
  // courtesy and chat
  vdd: "verdade", pf: "por favor", pfv: "por favor", pfvr: "por favor", obg: "obrigado", vlw: "valeu", blz: "beleza",
  tlgd: "ta ligado", sqn: "so que nao", sla: "sei la",
};
