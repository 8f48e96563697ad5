/**
 * Topical evidence for the out-of-scope gate: Princeton WordNet 3.0's lexicographer files
 * (what kind of thing a word names: noun.food, noun.feeling, verb.emotion…) and groups of its
 * topic domains (a synset marked as belonging to computer_science, cooking, sport…), reached
 * from a Portuguese word through OpenWordNet-PT's synset ids. Pure: the data is parsed from
 * text that the caller reads (resources/scope/wordnet-pt-topics.tsv.gz).
 */
import { analyzeWord } from "../../analysis/analyze.js";
import { foldAccents } from "../../analysis/fold.js";

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

interface TopicEntry {
  /** Lexnames with their synset counts, in first-seen order. */
  counts: readonly (readonly [string, number])[];
  total: number;
  domains: ReadonlySet<string>;
}

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
 * The topics of words, looked up by the project's stem (so inflected question words reach
 * their lemma: "impostos" → "impost" → imposto), or by folded lemma.
 */
export class TopicLexicon {
  private readonly byStem = new Map<string, TopicEntry>();
  private readonly byLemma = new Map<string, TopicEntry>();

  /**
   * Entries are built with Maps and Sets, then frozen as arrays (and one shared empty set): ≈ 60k
   * entries, a Map and a Set each would cost ≈ 15 MB a thread.
   */
  constructor(rows: Iterable<{ lemma: string; lexnames: readonly string[]; domains: readonly string[] }>) {
    const building = [new Map<string, BuildingEntry>(), new Map<string, BuildingEntry>()] as const;
    const names = new Map<string, string>();
    const intern = (name: string) => names.get(name) ?? (names.set(name, name), name);
    for (const row of rows) {
      for (const [map, key] of [[building[0], analyzeWord(row.lemma)], [building[1], foldAccents(row.lemma)]] as const) {
        let entry = map.get(key);
        if (!entry) map.set(key, (entry = { counts: new Map(), total: 0, domains: new Set() }));
        for (const lexname of row.lexnames) {
          entry.counts.set(intern(lexname), (entry.counts.get(lexname) ?? 0) + 1);
          entry.total++;
        }
        for (const domain of row.domains) entry.domains.add(intern(domain));
      }
    }
    for (const [from, to] of [[building[0], this.byStem], [building[1], this.byLemma]] as const) {
      for (const [key, entry] of from) {
        to.set(key, { counts: [...entry.counts], total: entry.total, domains: entry.domains.size === 0 ? NO_DOMAINS : entry.domains });
      }
    }
  }

  get size(): number {
    return this.byStem.size;
  }

  /**
   * Topics of a word: of its lemma when the folded word is one ("medo"), else of every lemma
   * sharing its stem ("impostos" → imposto); undefined when WordNet-PT does not know it. The
   * lemma comes first because short stems gather unrelated words ("med": medo, medir, médio).
   */
  topics(stem: string, foldedWord?: string): StemTopics | undefined {
    const entry = (foldedWord === undefined ? undefined : this.byLemma.get(foldedWord)) ?? this.byStem.get(stem);
    if (!entry || entry.total === 0) return undefined;
    return { lexnames: new Map(entry.counts.map(([name, count]) => [name, count / entry.total])), domains: entry.domains };
  }
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
