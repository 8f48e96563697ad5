import { stat } from "node:fs/promises";
import path from "node:path";
import type { EmbedKind, Embedder } from "../../core/index/embedder.js";

/**
 * Weight formats transformers.js can load; each maps to a file name under `onnx/`
 * (`fp32` → `model.onnx`, `q8` → `model_quantized.onnx`, ...).
 */
export type TransformersDtype = "fp32" | "fp16" | "q8" | "int8" | "uint8" | "q4" | "q4f16" | "bnb4";

export type TransformersPooling = "mean" | "cls";

export interface TransformersEmbedderOptions {
  /**
   * A Hugging Face hub id (e.g. `Xenova/paraphrase-multilingual-MiniLM-L12-v2`) or a local
   * folder. An absolute path, a path starting with `./` or `../`, or any relative path that
   * exists is treated as a folder and loaded without ever touching the network.
   */
  model: string;
  /** Where hub downloads are cached (transformers.js default when omitted). */
  cacheDir?: string;
  /** For hub ids: whether files missing from the cache may be downloaded. Default true. */
  allowRemote?: boolean;
  /** Default `mean` (what sentence-transformers models such as paraphrase-multilingual use). */
  pooling?: TransformersPooling;
  /**
   * Default true. `false` returns the raw pooled vectors, which breaks the `Embedder`
   * contract (unit length): only for diagnostics.
   */
  normalize?: boolean;
  /** Prepended to query texts (e.g. `query: ` for E5 models). Default none. */
  queryPrefix?: string;
  /** Prepended to document texts (e.g. `passage: ` for E5 models). Default none. */
  documentPrefix?: string;
  /** Texts per forward pass. Default 32. */
  batchSize?: number;
  /** Weight format; selects the ONNX file. Default `fp32` (`onnx/model.onnx`). */
  dtype?: TransformersDtype;
}

export type EmbedderLoadErrorCode = "embedder_load_failed";

/** A model that could not be loaded; the message is user-facing (Portuguese). */
export class EmbedderLoadError extends Error {
  readonly code: EmbedderLoadErrorCode = "embedder_load_failed";
  /** The model as the caller named it (hub id or folder). */
  readonly model: string;

  constructor(model: string, detail: string, options?: { cause?: unknown }) {
    super(`Não foi possível carregar o modelo de embeddings '${model}': ${detail}`, options);
    this.name = "EmbedderLoadError";
    this.model = model;
  }
}

export const DEFAULT_BATCH_SIZE = 32;

const DTYPE_SUFFIX: Record<TransformersDtype, string> = {
  fp32: "",
  fp16: "_fp16",
  q8: "_quantized",
  int8: "_int8",
  uint8: "_uint8",
  q4: "_q4",
  q4f16: "_q4f16",
  bnb4: "_bnb4",
};

/** The files transformers.js needs for a feature-extraction model in a local folder. */
export function requiredModelFiles(dtype: TransformersDtype = "fp32"): string[] {
  return ["config.json", "tokenizer.json", "tokenizer_config.json", `onnx/model${DTYPE_SUFFIX[dtype]}.onnx`];
}

/** The slice of transformers.js' Tensor this adapter reads. */
interface OutputTensor {
  readonly type: string;
  readonly dims: readonly number[];
  readonly data: ArrayLike<number>;
  to(type: "float32"): OutputTensor;
}

type FeatureExtractor = {
  (texts: string[], options: { pooling: TransformersPooling; normalize: boolean }): Promise<OutputTensor>;
  dispose(): Promise<void>;
};

/** Lazy, so the rest of the app starts without loading onnxruntime. */
const importTransformers = () => import("@huggingface/transformers");

/**
 * transformers.js configuration lives in a module-level `env` object; loads are serialised
 * so that one load's settings (e.g. `allowRemoteModels`) cannot leak into another's.
 */
let loadQueue: Promise<unknown> = Promise.resolve();
let defaultLocalModelPath: string | undefined;

/** Loads a transformers.js feature-extraction model as an `Embedder`. */
export async function createTransformersEmbedder(options: TransformersEmbedderOptions): Promise<Embedder> {
  const run = loadQueue.then(() => load(options));
  loadQueue = run.catch(() => undefined);
  return run;
}

async function load(options: TransformersEmbedderOptions): Promise<Embedder> {
  const model = options.model.trim();
  const pooling = options.pooling ?? "mean";
  const normalize = options.normalize ?? true;
  const queryPrefix = options.queryPrefix ?? "";
  const documentPrefix = options.documentPrefix ?? "";
  const dtype = options.dtype ?? "fp32";
  const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE;
  const label = model || options.model;

  if (model === "") throw new EmbedderLoadError(label, "nenhum modelo foi informado");
  if (!Number.isInteger(batchSize) || batchSize < 1) {
    throw new EmbedderLoadError(label, `batchSize deve ser um inteiro positivo (recebido: ${String(batchSize)})`);
  }
  if (!Object.hasOwn(DTYPE_SUFFIX, dtype)) {
    throw new EmbedderLoadError(label, `dtype desconhecido '${String(dtype)}' (use ${Object.keys(DTYPE_SUFFIX).join(", ")})`);
  }

  const folder = await resolveLocalFolder(model);
  if (folder) await checkLocalFolder(label, folder, dtype);

  const transformers = await importTransformers().catch((error: unknown) => {
    throw new EmbedderLoadError(label, `a biblioteca @huggingface/transformers não pôde ser carregada (${messageOf(error)})`, {
      cause: error,
    });
  });

  const { env } = transformers;
  const allowRemote = folder ? false : (options.allowRemote ?? true);
  env.allowLocalModels = true;
  env.allowRemoteModels = allowRemote;
  defaultLocalModelPath ??= env.localModelPath;
  // A folder is passed to transformers.js by its absolute path (not a valid hub id, so it is read
  // as-is); localModelPath points at its parent for completeness. Hub loads get the library's
  // default back, so an earlier folder's parent is never searched for a hub id.
  env.localModelPath = folder ? path.dirname(folder) + path.sep : defaultLocalModelPath;
  const cacheDir = options.cacheDir ? path.resolve(options.cacheDir) : undefined;

  // The typed overloads of `pipeline` are too large for the compiler to check usefully here.
  const pipeline = transformers.pipeline as unknown as (
    task: "feature-extraction",
    model: string,
    options: Record<string, unknown>,
  ) => Promise<FeatureExtractor>;
  const extractor = await pipeline("feature-extraction", folder ?? model, {
    dtype,
    device: "cpu",
    local_files_only: !allowRemote,
    ...(cacheDir ? { cache_dir: cacheDir } : {}),
  }).catch((error: unknown) => {
    throw new EmbedderLoadError(label, describeLoadFailure(error, { local: folder !== undefined, allowRemote, cacheDir }), {
      cause: error,
    });
  });

  const run = async (texts: string[]): Promise<Float32Array[]> => {
    let output = await extractor(texts, { pooling, normalize });
    if (output.type !== "float32") output = output.to("float32");
    const [rows, width] = output.dims;
    if (output.dims.length !== 2 || rows !== texts.length || !width) {
      throw new Error(`saída inesperada do modelo: dimensões [${output.dims.join(", ")}] para ${texts.length} textos`);
    }
    const data = output.data;
    // Copies, so callers never share (or pin) the batch buffer.
    return Array.from({ length: rows }, (_, row) =>
      data instanceof Float32Array
        ? data.slice(row * width, (row + 1) * width)
        : Float32Array.from({ length: width }, (_, column) => data[row * width + column]!),
    );
  };

  let dimensions: number;
  try {
    const [probe] = await run(["teste"]);
    dimensions = probe!.length;
  } catch (error) {
    await extractor.dispose().catch(() => undefined);
    throw new EmbedderLoadError(label, `o modelo carregou, mas falhou ao gerar um vetor de teste (${messageOf(error)})`, {
      cause: error,
    });
  }

  return {
    id: embedderId({ name: folder ? path.basename(folder) : model, pooling, normalize, dtype, queryPrefix, documentPrefix }),
    dimensions,
    async embed(texts: readonly string[], kind: EmbedKind): Promise<Float32Array[]> {
      const prefix = kind === "query" ? queryPrefix : documentPrefix;
      const vectors: Float32Array[] = [];
      for (let start = 0; start < texts.length; start += batchSize) {
        const batch = texts.slice(start, start + batchSize).map((text) => prefix + text);
        vectors.push(...(await run(batch)));
      }
      return vectors;
    },
  };
}

/**
 * Identity stored in the index manifest: the model name plus every setting that changes the
 * vectors. A local folder is named by its basename, so moving it does not invalidate an index.
 */
export function embedderId(parts: {
  name: string;
  pooling: TransformersPooling;
  normalize: boolean;
  dtype: TransformersDtype;
  queryPrefix: string;
  documentPrefix: string;
}): string {
  let id = `transformers:${parts.name}:${parts.pooling}:${parts.normalize ? "norm" : "raw"}:${parts.dtype}`;
  if (parts.queryPrefix !== "" || parts.documentPrefix !== "") {
    id += `:q=${encodeURIComponent(parts.queryPrefix)}:d=${encodeURIComponent(parts.documentPrefix)}`;
  }
  return id;
}

/** ".", "..", or a path starting with "./", "../" (either slash) or "~". */
const RELATIVE_PATH = /^(?:\.\.?(?:[/\\]|$)|~)/;

/** A file's stats, or undefined when it cannot be read (missing, no permission, ...). */
const statOrUndefined = (file: string) => stat(file).catch(() => undefined);

/** The absolute folder for a local model, or undefined for a hub id. */
async function resolveLocalFolder(model: string): Promise<string | undefined> {
  const absolute = path.resolve(model);
  const local = path.isAbsolute(model) || RELATIVE_PATH.test(model) || (await statOrUndefined(absolute)) !== undefined;
  return local ? absolute : undefined;
}

/** Fails fast, with the names of what is missing, before transformers.js gets involved. */
async function checkLocalFolder(label: string, folder: string, dtype: TransformersDtype): Promise<void> {
  if (label.startsWith("~")) {
    throw new EmbedderLoadError(label, "o caminho começa com '~'; use um caminho absoluto ou relativo (o '~' não é expandido)");
  }
  const folderStats = await statOrUndefined(folder);
  if (!folderStats) throw new EmbedderLoadError(label, `a pasta '${folder}' não existe`);
  if (!folderStats.isDirectory()) throw new EmbedderLoadError(label, `'${folder}' não é uma pasta`);

  const missing: string[] = [];
  for (const file of requiredModelFiles(dtype)) {
    if (!(await statOrUndefined(path.join(folder, file)))?.isFile()) missing.push(file);
  }
  if (missing.length > 0) {
    const list = missing.map((file) => `'${file}'`).join(", ");
    throw new EmbedderLoadError(
      label,
      `${missing.length === 1 ? "falta o arquivo" : "faltam os arquivos"} ${list} na pasta '${folder}'` +
        (dtype !== "fp32" && missing.some((file) => file.startsWith("onnx/")) ? ` (dtype '${dtype}')` : ""),
    );
  }
}

function describeLoadFailure(
  error: unknown,
  context: { local: boolean; allowRemote: boolean; cacheDir: string | undefined },
): string {
  const message = messageOf(error);
  const missingFile = /not found locally at "([^"]+)"|Local file missing at "([^"]+)"/.exec(message);
  if (missingFile) {
    const file = missingFile[1] ?? missingFile[2] ?? "";
    if (context.local) return `o arquivo '${file}' não foi encontrado`;
    const cache = context.cacheDir ? `no cache '${context.cacheDir}'` : "no cache local";
    return `o arquivo '${path.basename(file)}' não está ${cache} e o download está desativado (allowRemote=false)`;
  }
  if (/fetch failed|ENOTFOUND|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EAI_AGAIN|network/i.test(message)) {
    return `falha de rede ao baixar o modelo do Hugging Face Hub; sem internet, use uma pasta local ou um cache já baixado (${message})`;
  }
  if (/Could not locate file|status code 404|\b404\b|401|403/i.test(message)) {
    return `o modelo ou um de seus arquivos não existe no Hugging Face Hub (${message})`;
  }
  if (/Unsupported model type|Unsupported pipeline/i.test(message)) {
    return `tipo de modelo não suportado pelo transformers.js (${message})`;
  }
  if (/protobuf|onnx|session|Load model/i.test(message)) {
    return `o arquivo ONNX não pôde ser aberto pelo onnxruntime (${message})`;
  }
  if (/JSON/i.test(message)) return `um arquivo de configuração do modelo é inválido (${message})`;
  return message;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : "";
    return error.message + cause;
  }
  return String(error);
}
