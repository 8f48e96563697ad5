/**
 * Binary logistic regression over named features: the out-of-scope gate's classifier, fitted
 * offline (scripts/scope/train.ts) and shipped as JSON. Pure.
 */

export interface LogisticModel {
  /** Feature names in weight order. */
  features: readonly string[];
  weights: readonly number[];
  bias: number;
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}

const weightMaps = new WeakMap<LogisticModel, Map<string, number>>();

function weightsOf(model: LogisticModel): Map<string, number> {
  let map = weightMaps.get(model);
  if (!map) weightMaps.set(model, (map = new Map(model.features.map((name, i) => [name, model.weights[i]!]))));
  return map;
}

/** The model's probability for one (sparse) feature record; features the model lacks weigh 0. */
export function predict(model: LogisticModel, features: Readonly<Record<string, number>>): number {
  const weights = weightsOf(model);
  let z = model.bias;
  for (const name in features) z += (weights.get(name) ?? 0) * features[name]!;
  return sigmoid(z);
}

/** Each feature's contribution (weight × value) to the decision, largest magnitude first. */
export function contributions(model: LogisticModel, features: Readonly<Record<string, number>>): { feature: string; contribution: number }[] {
  const weights = weightsOf(model);
  return Object.entries(features)
    .map(([name, value]) => ({ feature: name, contribution: (weights.get(name) ?? 0) * value }))
    .filter((entry) => entry.contribution !== 0)
    .sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution));
}

export interface FitOptions {
  /** L2 penalty (default 0.01). */
  l2?: number;
  epochs?: number;
  learningRate?: number;
  /** Weight of positive examples relative to negatives (default 1). */
  positiveWeight?: number;
}

/**
 * Fits by full-batch gradient descent on the L2-regularised log loss (the bias is not
 * penalised). Deterministic: starts from zero weights.
 */
export function fitLogistic(
  names: readonly string[],
  rows: readonly Readonly<Record<string, number>>[],
  labels: readonly (0 | 1)[],
  options: FitOptions = {},
): LogisticModel {
  const l2 = options.l2 ?? 0.01;
  const epochs = options.epochs ?? 3000;
  const rate = options.learningRate ?? 0.5;
  const positiveWeight = options.positiveWeight ?? 1;
  const column = new Map(names.map((name, j) => [name, j]));
  // Sparse rows: (column, value) pairs of the non-zero features the model has.
  const sparse = rows.map((row) =>
    Object.entries(row).flatMap(([name, value]) => {
      const j = column.get(name);
      return j === undefined || value === 0 ? [] : [[j, value] as const];
    }),
  );
  const weights = new Float64Array(names.length);
  const gradient = new Float64Array(names.length);
  let bias = 0;
  const totalWeight = labels.reduce<number>((sum, label) => sum + (label === 1 ? positiveWeight : 1), 0);
  for (let epoch = 0; epoch < epochs; epoch++) {
    gradient.fill(0);
    let biasGradient = 0;
    sparse.forEach((entries, i) => {
      let z = bias;
      for (const [j, value] of entries) z += weights[j]! * value;
      const error = (sigmoid(z) - labels[i]!) * (labels[i] === 1 ? positiveWeight : 1);
      for (const [j, value] of entries) gradient[j]! += error * value;
      biasGradient += error;
    });
    for (let j = 0; j < weights.length; j++) weights[j]! -= rate * (gradient[j]! / totalWeight + l2 * weights[j]!);
    bias -= rate * (biasGradient / totalWeight);
  }
  return { features: [...names], weights: Array.from(weights, (w) => Number(w.toFixed(5))), bias: Number(bias.toFixed(5)) };
}
