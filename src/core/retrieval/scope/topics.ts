/**
 * Topical evidence for the out-of-scope gate: Princeton WordNet 3.0's lexicographer files
 * (what kind of thing a word names: noun.food, noun.feeling, verb.emotion…) and groups of its
 * topic domains (a synset marked as belonging to computer_science, cooking, sport…), reached
 * from a Portuguese word through OpenWordNet-PT's synset ids. Pure: the data is parsed from
 * text that the caller reads (resources/scope/wordnet-pt-topics.tsv.gz).
 */
import { analyzeWord } from "../../analysis/analyze.js";
import { foldAccents } from "../../analysis/fold.js";
import { SnapshotError, type SnapshotReader, type SnapshotWriter } from "../../index/snapshot.js";
import { TermDictionary } from "../term-dictionary.js";

/** WordNet 3.0 lexicographer file names, by number (lexnames(5WN)). */
export const LEXNAMES: readonly string[] = [
  "adj.all", "adj.pert", "adv.all", "noun.Tops", "noun.act", "noun.animal", "noun.artifact", "noun.attribute",
  "noun.body", "noun.cognition", "noun.communication", "noun.event", "noun.feeling", "noun.food", "noun.group",
  "noun.location", "noun.motive", "noun.object", "noun.person", "noun.phenomenon", "noun.plant", "noun.possession",
  "noun.process", "noun.quantity", "noun.relation", "noun.shape", "noun.state", "noun.substance", "noun.time",
  "verb.body", "verb.change", "verb.cognition", "verb.communication", "verb.competition", "verb.consumption",
  "verb.contact", "verb.creation", "verb.emotion", "verb.motion", "verb.perception", "verb.possession",
  "verb.social", "verb.stative", "verb.weather", "adj.ppl",
];

/**
 * Topic domains of WordNet grouped into the few themes that tell a Bible question from another
 * (a domain not listed carries nothing). "religion" is Judaeo-Christian only.
 */
export const DOMAIN_GROUPS: Readonly<Record<string, readonly string[]>> = {
  religion: [
    "Roman_Catholic", "Old_Testament", "New_Testament", "Judaism", "religion", "Christianity", "church_service",
    "theology", "Christian_theology", "Anglican_Church", "Bible", "Orthodox_Church", "Apocrypha", "Luke",
    "Revelation", "Genesis", "Episcopal_Church", "Protestant_Church", "canon_law",
  ],
  technology: [
    "computer_science", "computer", "electronics", "telecommunication", "programming", "computer_graphics",
    "computer_technology", "information_science", "electrical_engineering", "television", "telephone",
    "broadcasting", "broadcast_medium", "radio", "recording", "photography", "telegraphy", "electricity", "simulation",
  ],
  sport: [
    "sport", "baseball", "golf", "football", "American_football", "basketball", "professional_basketball", "tennis",
    "soccer", "ice_hockey", "boxing", "chess", "card_game", "cricket", "rugby", "softball", "squash", "badminton",
    "fencing", "water_sport", "field_hockey", "auto_racing", "gymnastics", "court_game", "billiards", "polo",
    "lacrosse", "bowling", "horse_racing", "wrestling", "mountain_climbing", "skiing", "table_tennis", "snooker",
    "ball_game", "tenpins", "racing", "poker", "bridge", "checkers", "board_game", "game", "croquet", "quoits", "craps",
  ],
  science: [
    "physics", "chemistry", "mathematics", "statistics", "biology", "genetics", "astronomy", "geology", "botany",
    "zoology", "biochemistry", "geometry", "arithmetic", "algebra", "matrix_algebra", "cosmology", "particle_physics",
    "physical_chemistry", "optics", "thermodynamics", "acoustics", "nuclear_physics", "mechanics", "quantum_theory",
    "relativity", "cryogenics", "molecular_biology", "paleontology", "microbiology", "mineralogy", "metallurgy",
    "engineering", "oceanography", "tectonics", "meteorology", "ecology", "hydrostatics", "colloid", "science",
    "chemical_analysis", "microscopy", "numeration_system", "game_theory", "linguistics", "phonetics", "phonology",
  ],
  commerce: [
    "commerce", "commercial_enterprise", "economics", "finance", "stock_exchange", "accounting", "tax", "investing",
    "investment", "banking", "trade", "business", "corporate_finance", "bookkeeping", "accountancy", "auction",
    "corporation", "industry", "trademark",
  ],
  medicine: [
    "medicine", "pathology", "surgery", "psychiatry", "anatomy", "physiology", "obstetrics", "dentistry",
    "ophthalmology", "immunology", "pharmacology", "radiology", "neurology", "endocrinology", "orthopedics",
    "toxicology", "virology", "bacteriology", "epidemiology", "histology", "cytology", "otology", "neurophysiology",
    "embryology", "veterinary_medicine", "psychotherapy", "psychoanalysis", "drug", "narcotic",
  ],
  law: [
    "law", "criminal_law", "civil_law", "contract", "legislation", "Roman_law", "tort", "case_law", "contract_law",
    "corporation_law", "matrimonial_law", "maritime_law", "military_law", "legislature", "parliament", "election",
    "government", "politics", "diplomacy",
  ],
  cooking: ["cooking", "tasting", "brewing", "winemaking", "viticulture"],
  transport: ["driving", "car", "motor_vehicle", "air_travel", "airplane", "aircraft", "train", "bus", "aeronautics", "spaceflight", "jet_engine"],
  entertainment: [
    "movie", "film", "ballet", "dance", "dancing", "drama", "dramaturgy", "performing_arts", "jazz", "rock_'n'_roll",
    "music_genre", "concert", "fashion", "science_fiction", "photography", "fine_arts",
  ],
};

interface BuildingEntry {
  counts: Map<string, number>;
  total: number;
  domains: Set<string>;
}

/** Shared by the entries without domains (most of them). */
const NO_DOMAINS: ReadonlySet<string> = new Set();

/** What WordNet says of one stem: shares of its synsets per lexicographer file, and domain groups. */
export interface StemTopics {
  /** Lexname → share of the stem's synsets (sums to 1). */
  lexnames: ReadonlyMap<string, number>;
  domains: ReadonlySet<string>;
}

/**
 * One lookup table of the lexicon (by stem, or by folded lemma): the keys as a sorted
 * dictionary and, per key, its lexnames with their synset counts (first-seen order) and its
 * domains, as runs of ids into the lexicon's names.
 */
interface TopicTable {
  keys: TermDictionary;
  countOffsets: Int32Array;
  countNames: Uint16Array;
  counts: Int32Array;
  totals: Int32Array;
  domainOffsets: Int32Array;
  domainNames: Uint16Array;
}

const TABLES = ["byStem", "byLemma"] as const;

/**
 * The topics of words, looked up by the project's stem (so inflected question words reach
 * their lemma: "impostos" → "impost" → imposto), or by folded lemma.
 */
export class TopicLexicon {
  private readonly names: readonly string[];
  private readonly byStem: TopicTable;
  private readonly byLemma: TopicTable;

  /**
   * Entries are built with Maps and Sets, then frozen into typed arrays over sorted keys: ≈ 60k
   * entries, a Map and a Set each would cost ≈ 15 MB a thread.
   */
  constructor(rows: Iterable<{ lemma: string; lexnames: readonly string[]; domains: readonly string[] }> | { names: readonly string[]; byStem: TopicTable; byLemma: TopicTable }) {
    if (!isIterable(rows)) {
      this.names = rows.names;
      this.byStem = rows.byStem;
      this.byLemma = rows.byLemma;
      return;
    }
    const building = [new Map<string, BuildingEntry>(), new Map<string, BuildingEntry>()] as const;
    const nameIds = new Map<string, number>();
    const intern = (name: string) => nameIds.get(name) ?? (nameIds.set(name, nameIds.size), nameIds.size - 1);
    for (const row of rows) {
      for (const [map, key] of [[building[0], analyzeWord(row.lemma)], [building[1], foldAccents(row.lemma)]] as const) {
        let entry = map.get(key);
        if (!entry) map.set(key, (entry = { counts: new Map(), total: 0, domains: new Set() }));
        for (const lexname of row.lexnames) {
          intern(lexname);
          entry.counts.set(lexname, (entry.counts.get(lexname) ?? 0) + 1);
          entry.total++;
        }
        for (const domain of row.domains) {
          intern(domain);
          entry.domains.add(domain);
        }
      }
    }
    this.names = [...nameIds.keys()];
    const freeze = (map: Map<string, BuildingEntry>): TopicTable => {
      const { dictionary, sorted } = TermDictionary.fromTerms(map.keys());
      const countOffsets = new Int32Array(sorted.length + 1);
      const domainOffsets = new Int32Array(sorted.length + 1);
      const countNames: number[] = [];
      const counts: number[] = [];
      const domainNames: number[] = [];
      const totals = new Int32Array(sorted.length);
      sorted.forEach((key, id) => {
        const entry = map.get(key)!;
        for (const [name, count] of entry.counts) {
          countNames.push(nameIds.get(name)!);
          counts.push(count);
        }
        for (const domain of entry.domains) domainNames.push(nameIds.get(domain)!);
        countOffsets[id + 1] = counts.length;
        domainOffsets[id + 1] = domainNames.length;
        totals[id] = entry.total;
      });
      return { keys: dictionary, countOffsets, countNames: Uint16Array.from(countNames), counts: Int32Array.from(counts), totals, domainOffsets, domainNames: Uint16Array.from(domainNames) };
    };
    this.byStem = freeze(building[0]);
    this.byLemma = freeze(building[1]);
  }

  /** The lexicon a snapshot holds (`write`), its shape checked. */
  static read(snapshot: SnapshotReader, name: string): TopicLexicon {
    const names = snapshot.strings(`${name}.names`);
    const [byStem, byLemma] = TABLES.map((table): TopicTable => {
      const at = `${name}.${table}`;
      const read = {
        keys: TermDictionary.read(snapshot, `${at}.keys`),
        countOffsets: snapshot.i32(`${at}.countOffsets`),
        countNames: snapshot.u16(`${at}.countNames`),
        counts: snapshot.i32(`${at}.counts`),
        totals: snapshot.i32(`${at}.totals`),
        domainOffsets: snapshot.i32(`${at}.domainOffsets`),
        domainNames: snapshot.u16(`${at}.domainNames`),
      };
      const n = read.keys.size;
      const valid =
        read.countOffsets.length === n + 1 &&
        read.domainOffsets.length === n + 1 &&
        read.totals.length === n &&
        read.countOffsets[n] === read.counts.length &&
        read.counts.length === read.countNames.length &&
        read.domainOffsets[n] === read.domainNames.length &&
        read.countNames.every((id) => id < names.length) &&
        read.domainNames.every((id) => id < names.length);
      if (!valid) throw new SnapshotError(`bad topic lexicon ${at}`);
      return read;
    }) as [TopicTable, TopicTable];
    return new TopicLexicon({ names, byStem, byLemma });
  }

  write(snapshot: SnapshotWriter, name: string): void {
    snapshot.putStrings(`${name}.names`, this.names);
    for (const table of TABLES) {
      const at = `${name}.${table}`;
      const t = this[table];
      t.keys.write(snapshot, `${at}.keys`);
      snapshot.put(`${at}.countOffsets`, t.countOffsets);
      snapshot.put(`${at}.countNames`, t.countNames);
      snapshot.put(`${at}.counts`, t.counts);
      snapshot.put(`${at}.totals`, t.totals);
      snapshot.put(`${at}.domainOffsets`, t.domainOffsets);
      snapshot.put(`${at}.domainNames`, t.domainNames);
    }
  }

  get size(): number {
    return this.byStem.keys.size;
  }

  /**
   * Topics of a word: of its lemma when the folded word is one ("medo"), else of every lemma
   * sharing its stem ("impostos" → imposto); undefined when WordNet-PT does not know it. The
   * lemma comes first because short stems gather unrelated words ("med": medo, medir, médio).
   */
  topics(stem: string, foldedWord?: string): StemTopics | undefined {
    const lemma = foldedWord === undefined ? -1 : this.byLemma.keys.idOf(foldedWord);
    const [table, id] = lemma >= 0 ? [this.byLemma, lemma] : [this.byStem, this.byStem.keys.idOf(stem)];
    if (id < 0) return undefined;
    const total = table.totals[id]!;
    if (total === 0) return undefined;
    const lexnames = new Map<string, number>();
    for (let i = table.countOffsets[id]!; i < table.countOffsets[id + 1]!; i++) lexnames.set(this.names[table.countNames[i]!]!, table.counts[i]! / total);
    const from = table.domainOffsets[id]!;
    const to = table.domainOffsets[id + 1]!;
    const domains = from === to ? NO_DOMAINS : new Set(Array.from(table.domainNames.subarray(from, to), (n) => this.names[n]!));
    return { lexnames, domains };
  }
}

function isIterable<T>(value: Iterable<T> | object): value is Iterable<T> {
  return typeof (value as Iterable<T>)[Symbol.iterator] === "function";
}

/** Parses resources/scope/wordnet-pt-topics.tsv (`lemma<TAB>lexnames,…<TAB>domains,…`). */
export function parseTopicRows(text: string): { lemma: string; lexnames: string[]; domains: string[] }[] {
  const list = (field: string) => (field === "" ? [] : field.split(","));
  return text.split("\n").flatMap((line) => {
    const [lemma, lexnames = "", domains = ""] = line.split("\t");
    // Blank lines and comments are skipped.
    return !lemma || line.startsWith("#") ? [] : [{ lemma, lexnames: list(lexnames), domains: list(domains) }];
  });
}
