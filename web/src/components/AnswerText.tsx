import { Fragment, useMemo, type ReactNode } from "react";
import type { Source } from "../lib/api";
import { documentCitations, documentNumberOf, isConfirmedReference, sourceNumbersOf } from "../lib/citations";
import { parseMarkdown, type Block, type Inline } from "../lib/markdown";
import { DocChip } from "./DocChip";
import { RefChip } from "./references";

const NO_SOURCES: readonly Source[] = [];
const NO_VERSE_CHIPS = () => false;
const NEWLINE = "\n";

/** What the chips of one answer point to: its consulted sources and the citations the server confirmed. */
interface ChipContext {
  sources: readonly Source[];
  citations: readonly string[] | null;
}

/**
 * The model's answer as safe elements: every piece of text is a React text node (no
 * dangerouslySetInnerHTML anywhere), Bible references become chips that open the reading view,
 * and the bracketed citations of the document excerpts it was given become document chips.
 * A chip shows the number of the consulted source it points to; a reference is marked checked
 * only once the `done` event lists it among the confirmed citations. Without `verseChips` (a
 * document collection's answer, which consults no verse: the server keeps a real verse as plain
 * text), Bible references stay text.
 */
export function AnswerText({
  text,
  sources = NO_SOURCES,
  citations = null,
  verseChips = true,
}: {
  text: string;
  sources?: readonly Source[];
  citations?: readonly string[] | null;
  verseChips?: boolean;
}) {
  // The list's content, not its identity, decides (a new array arrives with every token).
  const key = documentCitations(sources).join(NEWLINE);
  const blocks = useMemo(
    () => parseMarkdown(text, { documentCitations: key === "" ? [] : key.split(NEWLINE), ...(verseChips ? {} : { checkedReference: NO_VERSE_CHIPS }) }),
    [text, key, verseChips],
  );
  const context: ChipContext = { sources, citations };
  return <>{blocks.map((block, index) => renderBlock(block, index, context))}</>;
}

function renderBlock(block: Block, key: number, context: ChipContext): ReactNode {
  const renderInlines = (nodes: Inline[]) => renderInlinesIn(nodes, context);
  switch (block.type) {
    case "paragraph":
      return <p key={key}>{renderInlines(block.children)}</p>;
    case "heading":
      return (
        <p key={key} className="answer-heading">
          <strong>{renderInlines(block.children)}</strong>
        </p>
      );
    case "quote":
      return <blockquote key={key}>{renderInlines(block.children)}</blockquote>;
    case "list": {
      const items = block.items.map((item, index) => <li key={index}>{renderInlines(item)}</li>);
      return block.ordered ? (
        <ol key={key} start={block.start === 1 ? undefined : block.start}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
  }
}

/**
 * Punctuation that touches a reference ("(", "“" before it; ")", ".", "”" after it) stays on
 * the same line as the chip, so a line never ends with a lone "(".
 */
function gluePunctuation(nodes: Inline[]): (Inline | { type: "group"; children: Inline[] })[] {
  const out: (Inline | { type: "group"; children: Inline[] })[] = [];
  for (let i = 0; i < nodes.length; i += 1) {
    const node = nodes[i]!;
    if (node.type !== "ref" && node.type !== "doc") {
      out.push(node);
      continue;
    }
    const group: Inline[] = [];
    const previous = out[out.length - 1];
    if (previous?.type === "text") {
      const lead = /[^\s\p{L}\p{N}]+$/u.exec(previous.text)?.[0] ?? "";
      if (lead !== "") {
        out.pop();
        const rest = previous.text.slice(0, -lead.length);
        if (rest !== "") out.push({ type: "text", text: rest });
        group.push({ type: "text", text: lead });
      }
    }
    group.push(node);
    const next = nodes[i + 1];
    if (next?.type === "text") {
      const tail = /^[^\s\p{L}\p{N}]+/u.exec(next.text)?.[0] ?? "";
      if (tail !== "") {
        group.push({ type: "text", text: tail });
        nodes = [...nodes.slice(0, i + 1), { type: "text", text: next.text.slice(tail.length) }, ...nodes.slice(i + 2)];
      }
    }
    out.push(group.length === 1 ? node : { type: "group", children: group });
  }
  return out;
}

function renderInlinesIn(nodes: Inline[], context: ChipContext, glue = true): ReactNode {
  const renderInlines = (children: Inline[], glueThem = true) => renderInlinesIn(children, context, glueThem);
  return (glue ? gluePunctuation(nodes) : nodes).map((node, index) => {
    switch (node.type) {
      case "text":
        return <Fragment key={index}>{withLineBreaks(node.text)}</Fragment>;
      case "strong":
        return <strong key={index}>{renderInlines(node.children)}</strong>;
      case "em":
        return <em key={index}>{renderInlines(node.children)}</em>;
      case "ref":
        return (
          <RefChip
            key={index}
            text={node.text}
            query={node.query}
            numbers={sourceNumbersOf(node.query, context.sources)}
            checked={isConfirmedReference(node.query, context.citations)}
          />
        );
      case "doc": {
        const number = documentNumberOf(node.citation, context.sources);
        const source = number === undefined ? undefined : context.sources[number - 1];
        return <DocChip key={index} citation={node.citation} source={source?.kind === "document" ? source : undefined} number={number} />;
      }
      case "group":
        return (
          <span key={index} className="nowrap">
            {renderInlines(node.children, false)}
          </span>
        );
    }
  });
}

function withLineBreaks(text: string): ReactNode {
  if (!text.includes("\n")) return text;
  const parts = text.split("\n");
  return parts.map((part, index) => (
    <Fragment key={index}>
      {index > 0 && <br />}
      {part}
    </Fragment>
  ));
}
