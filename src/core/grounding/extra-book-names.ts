/**
 * Book names the Portuguese reference grammar (../bible/references.ts) does not know but a model
 * writes anyway, for the citation check's normalising shadow (./shadow.ts):
 * - English names and abbreviations of the 66 books, each mapped to a Portuguese stem the
 *   grammar accepts ("John" → "João", "1 Kings" → "1 Reis": the ordinal is kept as written);
 * - books outside the Protestant canon (deuterocanonical/apocryphal and pseudepigraphal), in
 *   Portuguese and English: nothing of them is ever shown, so any reference to them is removed.
 * Names are folded (lower case, no accents); multi-word names use single spaces.
 */

/** English (and Spanish) spelling (folded) → Portuguese stem. Only spellings that are not Portuguese words or other books. */
export const ENGLISH_BOOK_NAMES: ReadonlyMap<string, string> = new Map([
  ["genesis", "Gênesis"], ["exodus", "Êxodo"], ["leviticus", "Levítico"], ["numbers", "Números"],
  ["deuteronomy", "Deuteronômio"], ["joshua", "Josué"], ["josh", "Josué"], ["judges", "Juízes"],
  ["judg", "Juízes"], ["ruth", "Rute"], ["kings", "Reis"], ["kgs", "Reis"], ["chronicles", "Crônicas"],
  ["chron", "Crônicas"], ["chr", "Crônicas"], ["ezra", "Esdras"], ["nehemiah", "Neemias"], ["neh", "Neemias"],
  ["esther", "Ester"], ["esth", "Ester"], ["job", "Jó"], ["psalm", "Salmos"], ["psalms", "Salmos"],
  ["ps", "Salmos"], ["psa", "Salmos"], ["pss", "Salmos"], ["proverbs", "Provérbios"], ["eccl", "Eclesiastes"],
  ["ecclesiastes", "Eclesiastes"], ["song of songs", "Cânticos"], ["song of solomon", "Cânticos"],
  ["song", "Cânticos"], ["isaiah", "Isaías"], ["jeremiah", "Jeremias"], ["lamentations", "Lamentações"],
  ["ezekiel", "Ezequiel"], ["ezek", "Ezequiel"], ["hosea", "Oseias"], ["hos", "Oseias"], ["obadiah", "Obadias"],
  ["obad", "Obadias"], ["jonah", "Jonas"], ["micah", "Miqueias"], ["mic", "Miqueias"], ["nahum", "Naum"],
  ["nah", "Naum"], ["habakkuk", "Habacuque"], ["zephaniah", "Sofonias"], ["zeph", "Sofonias"],
  ["haggai", "Ageu"], ["hag", "Ageu"], ["zechariah", "Zacarias"], ["zech", "Zacarias"], ["malachi", "Malaquias"],
  ["matthew", "Mateus"], ["matt", "Mateus"], ["mark", "Marcos"], ["mk", "Marcos"], ["mrk", "Marcos"],
  ["luke", "Lucas"], ["lk", "Lucas"], ["john", "João"], ["jhn", "João"], ["acts", "Atos"],
  ["romans", "Romanos"], ["corinthians", "Coríntios"], ["galatians", "Gálatas"], ["ephesians", "Efésios"],
  ["eph", "Efésios"], ["philippians", "Filipenses"], ["phil", "Filipenses"], ["php", "Filipenses"],
  ["colossians", "Colossenses"], ["thessalonians", "Tessalonicenses"], ["thess", "Tessalonicenses"],
  ["timothy", "Timóteo"], ["titus", "Tito"], ["philemon", "Filemom"], ["phlm", "Filemom"],
  ["philem", "Filemom"], ["hebrews", "Hebreus"], ["james", "Tiago"], ["jas", "Tiago"], ["peter", "Pedro"],
  ["pet", "Pedro"], ["jude", "Judas"], ["revelation", "Apocalipse"], ["revelations", "Apocalipse"],
  ["rev", "Apocalipse"],
  // Spanish spellings that differ from the Portuguese ones
  ["juan", "João"], ["san juan", "João"], ["mateo", "Mateus"], ["san mateo", "Mateus"], ["hechos", "Atos"],
  ["santiago", "Tiago"], ["apocalipsis", "Apocalipse"], ["hebreos", "Hebreus"], ["proverbios", "Provérbios"],
  ["jeremias", "Jeremias"], ["efesios", "Efésios"], ["timoteo", "Timóteo"], ["tesalonicenses", "Tessalonicenses"],
  ["exodo", "Êxodo"], ["levitico", "Levítico"], ["deuteronomio", "Deuteronômio"], ["jueces", "Juízes"],
  ["reyes", "Reis"], ["cronicas", "Crônicas"], ["nehemias", "Neemias"], ["isaias", "Isaías"],
  ["lamentaciones", "Lamentações"], ["ezequiel", "Ezequiel"], ["oseas", "Oseias"], ["abdias", "Obadias"],
  ["miqueas", "Miqueias"], ["sofonias", "Sofonias"], ["hageo", "Ageu"], ["zacarias", "Zacarias"],
  ["filemon", "Filemom"], ["judas", "Judas"], ["cantares", "Cânticos"],
]);

/**
 * Books outside the Protestant canon, folded. Numbered ones ("1 Macabeus", "3 Esdras") take
 * their ordinal in the shadow's pattern; "esdras" is listed only with 3 or 4 (plain "Esdras"
 * is Ezra).
 */
export const OUTSIDE_CANON_NAMES: readonly string[] = [
  "tobias", "tobit", "tob", "tb", "judite", "judith", "jdt", "jt", "sabedoria de salomao", "sabedoria",
  "wisdom of solomon", "wisdom", "wis", "sab", "sb", "eclesiastico", "eclo", "siracida", "siraque", "sirach",
  "sir", "ben sira", "baruque", "baruc", "baruch", "bar", "br", "macabeus", "maccabees", "macc", "mac",
  "enoque", "enoch", "henoc", "henoque", "jubileus", "jubilees", "oracao de manasses", "prayer of manasseh",
  "salmos de salomao", "psalms of solomon", "odes de salomao", "odes of solomon", "evangelho de tome",
  "evangelho de tomas", "gospel of thomas", "evangelho de judas", "evangelho de maria", "evangelho de pedro",
  "apocalipse de pedro", "pastor de hermas", "shepherd of hermas", "didaque", "didache", "barnabe",
  "epistola de barnabe", "assuncao de moises", "testamento de abraao", "adicoes a ester", "bel e o dragao",
  "susana",
];

/** Names that need an ordinal to be outside the canon ("3 Esdras", "1 Mc"): without one they are canonical books. */
export const OUTSIDE_CANON_NUMBERED_ONLY: readonly string[] = ["esdras", "esd", "mc", "ma"];
