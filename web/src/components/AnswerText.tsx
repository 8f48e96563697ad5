import { Fragment, useMemo, type ReactNode } from "react";
import type { BibleReference } from "../../../src/core/bible/references";
import { parseMarkdown, type Block, type Inline } from "../lib/markdown";
import { DocChip } from "./DocChip";
import { RefChip } from "./references";

const NONE: readonly string[] = [];

/**
 * The model's answer as safe elements: every piece of text is a React text node (no
 * dangerouslySetInnerHTML anywhere), the Bible references the server checked become chips that
 * open the verses (`checkedReference`; the others stay text), and
 * the bracketed citations of the document excerpts it was given (`documentCitations`) become
 * document chips.
 */
export function AnswerText({
  text,
  documentCitations = NONE,
  checkedReference,
}: {
  text: string;
  documentCitations?: readonly string[];
  /** Which Bible references the server checked (chips); the others stay plain text. All when absent. */
  checkedReference?: (references: readonly BibleReference[]) => boolean;
}) {
  // The list's content, not its identity, decides (a new array arrives with every token).
  const key = documentCitations.join("\n");
  const blocks = useMemo(
    () => parseMarkdown(text, { documentCitations: key === "" ? [] : key.split("\n"), ...(checkedReference ? { checkedReference } : {}) }),
    [text, key, checkedReference],
  );
  return <>{blocks.map((block, index) => renderBlock(block, index))}</>;
}

function renderBlock(block: Block, key: number): ReactNode {
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

function renderInlines(nodes: Inline[], glue = true): ReactNode {
  return (glue ? gluePunctuation(nodes) : nodes).map((node, index) => {
    switch (node.type) {
      case "text":
        return <Fragment key={index}>{withLineBreaks(node.text)}</Fragment>;
      case "strong":
        return <strong key={index}>{renderInlines(node.children)}</strong>;
      case "em":
        return <em key={index}>{renderInlines(node.children)}</em>;
      case "ref":
        return <RefChip key={index} text={node.text} query={node.query} />;
      case "doc":
        return <DocChip key={index} citation={node.citation} />;
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
