/**
 * Reads USFX files from disk (gunzipped transparently when the name ends in `.gz`) and hands
 * the stream to the pure streaming parser, core/sources/usfx.ts.
 */
import { createReadStream } from "node:fs";
import { basename } from "node:path";
import { pipeline, type Readable } from "node:stream";
import { createGunzip } from "node:zlib";
import { EMPTY_FILE, parseUsfx, UsfxError, type ParseUsfxOptions } from "../../core/sources/usfx.js";
import type { Verse } from "../../core/types.js";

/** Source name for a path: its basename without a trailing `.gz`. */
export function usfxSourceName(path: string): string {
  return basename(path).replace(/\.gz$/i, "");
}

/**
 * Reads a USFX file as a stream (gunzipped transparently when the name ends in `.gz`) and yields
 * its verses. `source` is the basename without `.gz`.
 */
export async function* readUsfxFile(
  path: string,
  options: Omit<ParseUsfxOptions, "source"> = {},
): AsyncGenerator<Verse> {
  const source = usfxSourceName(path);
  const file = createReadStream(path, { highWaterMark: 256 * 1024 });
  const gzipped = /\.gz$/i.test(path);
  let stream: Readable = file;
  if (gzipped) {
    const gunzip = createGunzip();
    // Errors of either stream surface through the gunzip iterator; pipeline destroys both.
    pipeline(file, gunzip, () => {});
    stream = gunzip;
  }
  try {
    yield* parseUsfx(stream, { ...options, source });
  } catch (err) {
    // A 0-byte ".gz" is an empty file rather than a corrupt archive.
    const causeCode = (err instanceof UsfxError ? (err.cause as { code?: unknown } | undefined) : undefined)?.code;
    if (gzipped && file.bytesRead === 0 && typeof causeCode === "string" && causeCode.startsWith("Z_")) {
      throw new UsfxError("empty_file", source, EMPTY_FILE, undefined, { cause: err });
    }
    throw err;
  } finally {
    if (!file.destroyed) file.destroy();
    if (!stream.destroyed) stream.destroy();
  }
}

/** Convenience: all verses of a USFX file, in file order. */
export async function loadUsfxFile(path: string): Promise<Verse[]> {
  const verses: Verse[] = [];
  for await (const verse of readUsfxFile(path)) verses.push(verse);
  return verses;
}
