/**
 * The largest verse coordinates the product accepts anywhere a number enters from a data file
 * (the USFX parser refuses a file that goes beyond them; the engine and the CLI leave out a
 * stored verse beyond them, say from an index built before the bounds). Each is far above any
 * real Bible and tiny against what an array indexed by it could cost: Psalms has 150 chapters,
 * Psalm 119 has 176 verses, and the longest bridge of the four USFX files measured spans 9
 * verses (the WEB).
 */

/** The highest chapter number (Psalms: 150). */
export const MAX_CHAPTER = 1_000;
/** The highest verse number, a bridge's end included (Psalm 119: 176). */
export const MAX_VERSE = 1_000;
/** The most verses one bridge may span, both ends counted (`<v id="15-16"/>`: 2; the WEB's longest: 9). */
export const MAX_BRIDGE_VERSES = 100;

/** A verse's coordinate as data files carry it. */
export interface VerseNumbers {
  chapter: number;
  verse: number;
  verseEnd: number;
}

/**
 * Whether a verse's numbers are within the bounds: chapter 1..MAX_CHAPTER, verse 0..MAX_VERSE
 * (a verse 0, a psalm's title in some versifications, is harmless: no reference reaches it), a
 * bridge ending at or after its start and spanning at most MAX_BRIDGE_VERSES.
 */
export function withinVerseBounds({ chapter, verse, verseEnd }: VerseNumbers): boolean {
  return (
    Number.isInteger(chapter) &&
    chapter >= 1 &&
    chapter <= MAX_CHAPTER &&
    Number.isInteger(verse) &&
    verse >= 0 &&
    verse <= MAX_VERSE &&
    Number.isInteger(verseEnd) &&
    verseEnd >= verse &&
    verseEnd <= MAX_VERSE &&
    verseEnd - verse + 1 <= MAX_BRIDGE_VERSES
  );
}
