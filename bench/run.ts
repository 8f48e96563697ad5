/**
 * `npm run bench`: every benchmark in one run, figures printed as JSON sections.
 * Targets live here as figures to read, never as timed test assertions.
 */
import { runParseBench } from "./parse.js";
import { runRetrievalBench } from "./retrieval.js";
import { runChatBench } from "./chat.js";
import { runLoadBench } from "./load.js";
import { runLsaBench } from "./lsa.js";
import { runVectorBench } from "./vectors.js";
import { runCollectionsBench } from "./collections.js";
import { runChromaBench } from "./chroma.js";
import { runCitationsBench } from "./citations.js";
import { runCareBench } from "./care.js";
import { runKnowledgeBench } from "./knowledge.js";
import { runFastStartBench } from "./fast-start.js";

const sections: [string, () => Promise<unknown>][] = [
  // Issue 45: the code before it and this checkout side by side (start, build, search, memory, replicas).
  ["fast-start", runFastStartBench],
  ["parse", runParseBench],
  ["lsa", () => runLsaBench()],
  ["vectors", runVectorBench],
  ["retrieval", runRetrievalBench],
  ["chat", () => runChatBench()],
  // Issue 15: 50 and 200 streams, stub and a fake OpenAI-compatible server; health during load.
  ["load", runLoadBench],
  ["collections", runCollectionsBench],
  ["citations", () => runCitationsBench()],
  // The reading of a person at risk, on the event loop for every chat message.
  ["care", runCareBench],
  // Who, what and where (issue 41): the knowledge index's load and a question's lookup.
  ["knowledge", runKnowledgeBench],
  // The shared store beside SQLite (skipped, with a note, without npm run setup:chroma).
  ["chroma", runChromaBench],
];

for (const [name, run] of sections) {
  const started = performance.now();
  const figures = await run();
  console.log(`== ${name} (${Math.round(performance.now() - started)} ms)`);
  console.log(JSON.stringify(figures, null, 2));
}
