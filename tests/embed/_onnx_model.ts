/**
 * A tiny BERT-shaped ONNX model written byte by byte (the protobuf of `onnx.proto3`), so the
 * local provider runs through the real ONNX Runtime without a download: an embedding table
 * (vocabulary × dim) looked up by `Gather(table, input_ids)`, output per token
 * `last_hidden_state [batch, seq, dim]` as sentence-transformers exports are; or, `pooled`, a
 * `ReduceMean` over the sequence axis giving `sentence_embedding [batch, dim]`. Inputs
 * `input_ids` and `attention_mask` (int64), as BERT exports have them.
 */

/** A protobuf writer of the few wire types the model needs. */
class _Proto {
  readonly bytes: number[] = [];
  varint(n: number | bigint): this {
    let v = BigInt(n);
    if (v < 0n) v += 1n << 64n;
    while (v > 127n) {
      this.bytes.push(Number(v & 127n) | 128);
      v >>= 7n;
    }
    this.bytes.push(Number(v));
    return this;
  }
  int(field: number, n: number): this {
    return this.varint(field << 3).varint(n);
  }
  raw(field: number, data: Uint8Array): this {
    this.varint((field << 3) | 2).varint(data.length);
    for (const b of data) this.bytes.push(b);
    return this;
  }
  str(field: number, s: string): this {
    return this.raw(field, new TextEncoder().encode(s));
  }
  msg(field: number, m: _Proto): this {
    return this.raw(field, new Uint8Array(m.bytes));
  }
}

const _FLOAT = 1;
const _INT64 = 7;

function _valueInfo(name: string, elem: number, dims: (number | string)[]): _Proto {
  const shape = new _Proto();
  for (const d of dims) {
    shape.msg(1, typeof d === "number" ? new _Proto().int(1, d) : new _Proto().str(2, d));
  }
  const tensorType = new _Proto().int(1, elem).msg(2, shape);
  return new _Proto().str(1, name).msg(2, new _Proto().msg(1, tensorType));
}

function _node(op: string, inputs: string[], output: string, attrs: _Proto[] = []): _Proto {
  const n = new _Proto();
  for (const i of inputs) n.str(1, i);
  n.str(2, output).str(3, `${op}_node`).str(4, op);
  for (const a of attrs) n.msg(5, a);
  return n;
}

/** The model's bytes for an embedding table of `vocab` rows of `dim` floats (row-major). */
export function tinyEmbeddingModel(table: Float32Array, dim: number, pooled = false): Uint8Array {
  const vocab = table.length / dim;
  const initializer = new _Proto().int(1, vocab).int(1, dim).int(2, _FLOAT).str(8, "table")
    .raw(9, new Uint8Array(table.buffer, table.byteOffset, table.byteLength));
  const axisZero = new _Proto().str(1, "axis").int(3, 0).int(20, 2); // AttributeProto INT
  const graph = new _Proto()
    .msg(
      1,
      _node("Gather", ["table", "input_ids"], pooled ? "tokens" : "last_hidden_state", [axisZero]),
    );
  if (pooled) {
    const axes = new _Proto().str(1, "axes").int(8, 1).int(20, 7); // INTS [1]
    const keep = new _Proto().str(1, "keepdims").int(3, 0).int(20, 2);
    graph.msg(1, _node("ReduceMean", ["tokens"], "sentence_embedding", [axes, keep]));
  }
  graph.str(2, "tiny_embedding").msg(5, initializer)
    .msg(11, _valueInfo("input_ids", _INT64, ["batch", "seq"]))
    .msg(11, _valueInfo("attention_mask", _INT64, ["batch", "seq"]))
    .msg(
      12,
      pooled
        ? _valueInfo("sentence_embedding", _FLOAT, ["batch", dim])
        : _valueInfo("last_hidden_state", _FLOAT, ["batch", "seq", dim]),
    );
  const model = new _Proto().int(1, 8).str(2, "codemunch-test").msg(7, graph)
    .msg(8, new _Proto().str(1, "").int(2, 13)); // opset 13: ReduceMean takes axes as an attribute
  return new Uint8Array(model.bytes);
}

/** A WordPiece vocabulary: the special tokens, then `words` (and their `##` pieces). */
export const TINY_VOCAB = [
  "[PAD]",
  "[UNK]",
  "[CLS]",
  "[SEP]",
  "delete",
  "user",
  "load",
  "config",
  "parse",
  "##r",
  "##s",
  "erase",
  "remove",
  "file",
  ",",
  "(",
  ")",
];

/**
 * An embedding table for {@linkcode TINY_VOCAB} where synonyms share a direction: `delete`,
 * `erase` and `remove` point the same way, `load` and `parse` another; special tokens are 0.
 */
export function tinyTable(dim = 4): Float32Array {
  const rows: Record<string, number[]> = {
    delete: [1, 0, 0, 0],
    erase: [1, 0, 0, 0],
    remove: [0.9, 0.1, 0, 0],
    user: [0, 1, 0, 0],
    load: [0, 0, 1, 0],
    parse: [0, 0, 0.9, 0.1],
    config: [0, 0, 0, 1],
    file: [0, 0.2, 0, 0.8],
  };
  const t = new Float32Array(TINY_VOCAB.length * dim);
  for (const [i, token] of TINY_VOCAB.entries()) {
    const row = rows[token] ?? (token.startsWith("[") ? [0, 0, 0, 0] : [0.1, 0.1, 0.1, 0.1]);
    t.set(row.slice(0, dim), i * dim);
  }
  return t;
}

/** Write a model folder (`model.onnx`, `vocab.txt`) under `dir`. */
export function writeTinyModel(dir: string, pooled = false): void {
  Deno.mkdirSync(dir, { recursive: true });
  Deno.writeFileSync(`${dir}/model.onnx`, tinyEmbeddingModel(tinyTable(), 4, pooled));
  Deno.writeTextFileSync(`${dir}/vocab.txt`, TINY_VOCAB.join("\n") + "\n");
}

// `deno run --allow-write tests/embed/_onnx_model.ts DIR`: write the tiny model folder (for
// `deno task bench retrieval --embeddings DIR`, which then measures the pipeline, not a model).
if (import.meta.main) {
  const dir = Deno.args[0];
  if (dir === undefined) throw new Error("usage: _onnx_model.ts DIR");
  writeTinyModel(dir);
  console.log(`wrote ${dir}/model.onnx and ${dir}/vocab.txt`);
}
