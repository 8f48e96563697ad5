/**
 * Generates a tiny but real transformers.js model folder (BERT-shaped config, WordPiece
 * tokenizer, ONNX graph with seeded random weights), so the transformers.js embedder can be
 * tested end to end without any download.
 *
 * Graph (opset 13, IR 8), for int64 inputs input_ids / attention_mask / token_type_ids [batch, seq]:
 *   embeddings        = Gather(word_embeddings, input_ids) + Gather(token_type_embeddings, token_type_ids)
 *   last_hidden_state = Tanh(embeddings · dense_weight + dense_bias) * attention_mask[..., None]
 * The ONNX protobuf is written by the small encoder below (varints + length-delimited fields);
 * field numbers are those of onnx/onnx.proto.
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { mulberry32 } from "../../src/core/index/linalg.js";

export const TINY_SPECIAL_TOKENS = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"] as const;

const TINY_WORDS = [
  "deus", "é", "amor", "o", "a", "os", "as", "senhor", "meu", "pastor", "nada", "me", "faltará",
  "no", "princípio", "era", "verbo", "e", "de", "do", "da", "que", "fé", "esperança", "caridade",
  "jesus", "cristo", "paz", "graça", "luz", "vida", "caminho", "verdade", "céu", "terra", "pão",
  "palavra", "perdão", "salvação", "oração", "igreja", "ama", "crê", "vos", "dou", "eu", "sou",
  "##s", "##mente", "##ção", ".", ",", ";", ":", "!", "?",
] as const;

export interface TinyModelOptions {
  /** Width of the hidden state (and of the embeddings). Default 16. */
  hiddenSize?: number;
  /** PRNG seed for the weights. Default 42. */
  seed?: number;
  /** Folder name created inside a fresh temp directory. Default `tiny-bert`. */
  name?: string;
  /** Also write `onnx/model_quantized.onnx` (same graph) for dtype `q8`. Default false. */
  quantizedCopy?: boolean;
}

export interface TinyModel {
  /** Absolute path of the model folder. */
  readonly dir: string;
  /** The temp directory holding `dir`; removed by `cleanup()`. */
  readonly root: string;
  readonly hiddenSize: number;
  /** Token by id. */
  readonly vocab: readonly string[];
  /** [vocab, hidden], row-major. */
  readonly wordEmbeddings: Float32Array;
  /** [2, hidden], row-major. */
  readonly tokenTypeEmbeddings: Float32Array;
  /** [hidden, hidden], row-major (input index first). */
  readonly denseWeight: Float32Array;
  /** [hidden]. */
  readonly denseBias: Float32Array;
  /** Id of a token; throws for tokens not in the vocabulary. */
  tokenId(token: string): number;
  /** Reference forward pass (float64) for one unpadded sequence of token ids, token type 0. */
  hiddenStates(ids: readonly number[]): Float64Array[];
  cleanup(): Promise<void>;
}

export async function createTinyModel(options: TinyModelOptions = {}): Promise<TinyModel> {
  const hiddenSize = options.hiddenSize ?? 16;
  const random = mulberry32(options.seed ?? 42);
  const vocab: string[] = [...TINY_SPECIAL_TOKENS, ...TINY_WORDS];
  const ids = new Map(vocab.map((token, id) => [token, id]));

  const uniform = (count: number, scale: number) => Float32Array.from({ length: count }, () => (random() * 2 - 1) * scale);
  const wordEmbeddings = uniform(vocab.length * hiddenSize, 1);
  const tokenTypeEmbeddings = uniform(2 * hiddenSize, 0.1);
  const denseWeight = uniform(hiddenSize * hiddenSize, 1 / Math.sqrt(hiddenSize));
  const denseBias = uniform(hiddenSize, 0.1);

  const root = await mkdtemp(path.join(tmpdir(), "tiny-model-"));
  const dir = path.join(root, options.name ?? "tiny-bert");
  await mkdir(path.join(dir, "onnx"), { recursive: true });

  const onnx = encodeModel({ hiddenSize, vocabSize: vocab.length, wordEmbeddings, tokenTypeEmbeddings, denseWeight, denseBias });
  await writeFile(path.join(dir, "onnx", "model.onnx"), onnx);
  if (options.quantizedCopy) await writeFile(path.join(dir, "onnx", "model_quantized.onnx"), onnx);
  await writeJson(path.join(dir, "config.json"), bertConfig(hiddenSize, vocab.length));
  await writeJson(path.join(dir, "tokenizer.json"), tokenizerJson(vocab));
  await writeJson(path.join(dir, "tokenizer_config.json"), tokenizerConfig());

  const tokenId = (token: string): number => {
    const id = ids.get(token);
    if (id === undefined) throw new Error(`token '${token}' is not in the tiny vocabulary`);
    return id;
  };

  const hiddenStates = (sequence: readonly number[]): Float64Array[] =>
    sequence.map((id) => {
      const input = new Float64Array(hiddenSize);
      for (let i = 0; i < hiddenSize; i++) input[i] = wordEmbeddings[id * hiddenSize + i]! + tokenTypeEmbeddings[i]!;
      const output = new Float64Array(hiddenSize);
      for (let j = 0; j < hiddenSize; j++) {
        let sum = denseBias[j]!;
        for (let i = 0; i < hiddenSize; i++) sum += input[i]! * denseWeight[i * hiddenSize + j]!;
        output[j] = Math.tanh(sum);
      }
      return output;
    });

  return {
    dir,
    root,
    hiddenSize,
    vocab,
    wordEmbeddings,
    tokenTypeEmbeddings,
    denseWeight,
    denseBias,
    tokenId,
    hiddenStates,
    cleanup: () => rm(root, { recursive: true, force: true }),
  };
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, JSON.stringify(value, null, 2) + "\n", "utf8");
}

function bertConfig(hiddenSize: number, vocabSize: number) {
  return {
    _name_or_path: "tiny-bert",
    architectures: ["BertModel"],
    model_type: "bert",
    hidden_size: hiddenSize,
    intermediate_size: hiddenSize,
    num_attention_heads: 1,
    num_hidden_layers: 1,
    hidden_act: "tanh",
    max_position_embeddings: 64,
    type_vocab_size: 2,
    vocab_size: vocabSize,
    pad_token_id: 0,
    layer_norm_eps: 1e-12,
  };
}

function tokenizerJson(vocab: readonly string[]) {
  const special = (token: string) => ({ id: vocab.indexOf(token), content: token, single_word: false, lstrip: false, rstrip: false, normalized: false, special: true });
  const specialEntry = (token: string) => ({ id: token, ids: [vocab.indexOf(token)], tokens: [token] });
  return {
    version: "1.0",
    truncation: null,
    padding: null,
    added_tokens: TINY_SPECIAL_TOKENS.map(special),
    normalizer: { type: "BertNormalizer", clean_text: true, handle_chinese_chars: true, strip_accents: false, lowercase: true },
    pre_tokenizer: { type: "BertPreTokenizer" },
    post_processor: {
      type: "TemplateProcessing",
      single: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
      ],
      pair: [
        { SpecialToken: { id: "[CLS]", type_id: 0 } },
        { Sequence: { id: "A", type_id: 0 } },
        { SpecialToken: { id: "[SEP]", type_id: 0 } },
        { Sequence: { id: "B", type_id: 1 } },
        { SpecialToken: { id: "[SEP]", type_id: 1 } },
      ],
      special_tokens: { "[CLS]": specialEntry("[CLS]"), "[SEP]": specialEntry("[SEP]") },
    },
    decoder: { type: "WordPiece", prefix: "##", cleanup: true },
    model: {
      type: "WordPiece",
      unk_token: "[UNK]",
      continuing_subword_prefix: "##",
      max_input_chars_per_word: 100,
      vocab: Object.fromEntries(vocab.map((token, id) => [token, id])),
    },
  };
}

function tokenizerConfig() {
  return {
    tokenizer_class: "BertTokenizer",
    do_lower_case: true,
    strip_accents: false,
    model_max_length: 64,
    clean_up_tokenization_spaces: true,
    pad_token: "[PAD]",
    unk_token: "[UNK]",
    cls_token: "[CLS]",
    sep_token: "[SEP]",
    mask_token: "[MASK]",
  };
}

// ---------------------------------------------------------------------------------------------
// ONNX encoding

const ELEM_FLOAT = 1;
const ELEM_INT64 = 7;
const ATTR_INT = 2;

interface Weights {
  hiddenSize: number;
  vocabSize: number;
  wordEmbeddings: Float32Array;
  tokenTypeEmbeddings: Float32Array;
  denseWeight: Float32Array;
  denseBias: Float32Array;
}

/** Serialises the tiny graph as an ONNX ModelProto. */
export function encodeModel(weights: Weights): Uint8Array {
  const { hiddenSize: h, vocabSize } = weights;
  const graph = new ProtoWriter()
    .messages(1, [
      node("Gather", ["word_embeddings", "input_ids"], ["word_vectors"]),
      node("Gather", ["token_type_embeddings", "token_type_ids"], ["type_vectors"]),
      node("Add", ["word_vectors", "type_vectors"], ["embeddings"]),
      node("MatMul", ["embeddings", "dense_weight"], ["projected"]),
      node("Add", ["projected", "dense_bias"], ["pre_activation"]),
      node("Tanh", ["pre_activation"], ["activated"]),
      node("Cast", ["attention_mask"], ["mask_float"], [intAttribute("to", ELEM_FLOAT)]),
      node("Unsqueeze", ["mask_float", "unsqueeze_axes"], ["mask_expanded"]),
      node("Mul", ["activated", "mask_expanded"], ["last_hidden_state"]),
    ])
    .string(2, "tiny_bert")
    .messages(5, [
      floatTensor("word_embeddings", [vocabSize, h], weights.wordEmbeddings),
      floatTensor("token_type_embeddings", [2, h], weights.tokenTypeEmbeddings),
      floatTensor("dense_weight", [h, h], weights.denseWeight),
      floatTensor("dense_bias", [h], weights.denseBias),
      int64Tensor("unsqueeze_axes", [1], [-1n]),
    ])
    .messages(11, [
      valueInfo("input_ids", ELEM_INT64, ["batch_size", "sequence_length"]),
      valueInfo("attention_mask", ELEM_INT64, ["batch_size", "sequence_length"]),
      valueInfo("token_type_ids", ELEM_INT64, ["batch_size", "sequence_length"]),
    ])
    .messages(12, [valueInfo("last_hidden_state", ELEM_FLOAT, ["batch_size", "sequence_length", h])]);

  const opset = new ProtoWriter().string(1, "").varint(2, 13);
  return new ProtoWriter()
    .varint(1, 8) // ir_version
    .string(2, "pastor-online tiny-model") // producer_name
    .string(3, "1") // producer_version
    .message(7, graph)
    .message(8, opset) // opset_import
    .finish();
}

function node(opType: string, inputs: string[], outputs: string[], attributes: ProtoWriter[] = []): ProtoWriter {
  const writer = new ProtoWriter();
  for (const input of inputs) writer.string(1, input);
  for (const output of outputs) writer.string(2, output);
  writer.string(3, `${opType}_${outputs[0]}`).string(4, opType);
  return writer.messages(5, attributes);
}

function intAttribute(name: string, value: number): ProtoWriter {
  return new ProtoWriter().string(1, name).varint(3, value).varint(20, ATTR_INT);
}

function floatTensor(name: string, dims: number[], values: Float32Array): ProtoWriter {
  const raw = new Uint8Array(values.length * 4);
  const view = new DataView(raw.buffer);
  values.forEach((value, index) => view.setFloat32(index * 4, value, true));
  return tensor(name, ELEM_FLOAT, dims, raw);
}

function int64Tensor(name: string, dims: number[], values: bigint[]): ProtoWriter {
  const raw = new Uint8Array(values.length * 8);
  const view = new DataView(raw.buffer);
  values.forEach((value, index) => view.setBigInt64(index * 8, value, true));
  return tensor(name, ELEM_INT64, dims, raw);
}

function tensor(name: string, dataType: number, dims: number[], raw: Uint8Array): ProtoWriter {
  const writer = new ProtoWriter();
  for (const dim of dims) writer.varint(1, dim);
  return writer.varint(2, dataType).string(8, name).bytes(9, raw);
}

/** ValueInfoProto { name, type: TypeProto { tensor_type: { elem_type, shape } } }. */
function valueInfo(name: string, elemType: number, dims: (number | string)[]): ProtoWriter {
  const shape = new ProtoWriter().messages(
    1,
    dims.map((dim) => (typeof dim === "number" ? new ProtoWriter().varint(1, dim) : new ProtoWriter().string(2, dim))),
  );
  const tensorType = new ProtoWriter().varint(1, elemType).message(2, shape);
  const type = new ProtoWriter().message(1, tensorType);
  return new ProtoWriter().string(1, name).message(2, type);
}

/** Minimal protobuf writer: varint (wire type 0) and length-delimited (wire type 2) fields. */
export class ProtoWriter {
  private readonly chunks: Uint8Array[] = [];
  private length = 0;

  varint(field: number, value: number | bigint): this {
    this.push(encodeVarint(BigInt((field << 3) | 0)));
    this.push(encodeVarint(BigInt.asUintN(64, BigInt(value))));
    return this;
  }

  bytes(field: number, value: Uint8Array): this {
    this.push(encodeVarint(BigInt((field << 3) | 2)));
    this.push(encodeVarint(BigInt(value.length)));
    this.push(value);
    return this;
  }

  string(field: number, value: string): this {
    return this.bytes(field, new TextEncoder().encode(value));
  }

  message(field: number, value: ProtoWriter): this {
    return this.bytes(field, value.finish());
  }

  messages(field: number, values: ProtoWriter[]): this {
    for (const value of values) this.message(field, value);
    return this;
  }

  finish(): Uint8Array {
    const out = new Uint8Array(this.length);
    let offset = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, offset);
      offset += chunk.length;
    }
    return out;
  }

  private push(chunk: Uint8Array): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
  }
}

function encodeVarint(value: bigint): Uint8Array {
  const bytes: number[] = [];
  let rest = value;
  do {
    let byte = Number(rest & 0x7fn);
    rest >>= 7n;
    if (rest !== 0n) byte |= 0x80;
    bytes.push(byte);
  } while (rest !== 0n);
  return Uint8Array.from(bytes);
}
