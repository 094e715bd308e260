package embed

import (
	"fmt"
	"math"
)

// Node-name prefixes of the USE-lite TF.js graph.
const (
	nKona  = "module_apply_default/Encoder_en/KonaTransformer/"
	nStack = nKona + "Encode/TransformerStack/"
	nHead  = "module_apply_default/Encoder_en/hidden_layers/"
)

// layerNorm holds one layer_prepostprocess/layer_norm: y = scale·(x−μ)/√(σ²+eps) + bias
// over the last axis.
type layerNorm struct {
	scale, bias []float32
	eps         float32
}

// tfLayer is one TransformerLayer of the stack (pre-norm residual blocks).
type tfLayer struct {
	in     int // width of the layer's input (256 for layer 0, 512 for layer 1)
	width  int // attention width: q, k and v each have this many columns
	heads  int
	depth  int     // width / heads
	qScale float32 // the graph's MultiheadAttention/mul/y, 1/√depth
	lnAtt  layerNorm
	qkv    weight // in × 3·width
	qkvB   []float32
	out    weight // width × hidden
	outB   []float32
	res    *weight // AdjustResidualInput dense, in × hidden; nil when in == hidden
	resB   []float32
	lnFFN  layerNorm
	ff1    weight // hidden × ffn
	ff1B   []float32
	ff2    weight // ffn × hidden
	ff2B   []float32
}

// model is the USE-lite network with its weights laid out for linalg.
type model struct {
	vocab  int       // rows of the embedding table
	embDim int       // 256
	hidden int       // 512
	ffn    int       // 1536
	emb    []float32 // vocab × embDim
	timing []float32 // MaxTokens × embDim: sin(p·invTimescale) ‖ cos(p·invTimescale)
	layers []tfLayer
	final  weight // hidden × LocalDims, then tanh
	finalB []float32
	l2Eps  float32 // floor of the squared norm in l2_normalize
}

// structure lists graph nodes whose op (and, where given, inputs) the forward
// pass relies on; a file that differs is rejected rather than mis-computed.
var structure = []struct {
	name, op string
	inputs   []string
}{
	// Token id 0 is a real token: the padding test is ids > -1.
	{nKona + "Encode/Greater", "Greater", []string{nKona + "Encode/SparseToDense", nKona + "Encode/SparseToDense/default_value"}},
	// The stack input is embedding + (embedding + timing signal): the
	// embedding is added twice.
	{nStack + "Layer_0/add", "Add", []string{nKona + "Encode/Scatter/ScatterNd", nStack + "Layer_0/AddTimingSignal/Scatter/ScatterNd"}},
	{nStack + "Layer_0/AddTimingSignal/add", "Add", []string{nStack + "Layer_0/AddTimingSignal/Gather/GatherNd", nStack + "Layer_0/AddTimingSignal/TimingSignal/concat"}},
	{nStack + "Layer_0/AddTimingSignal/TimingSignal/concat", "ConcatV2", []string{nStack + "Layer_0/AddTimingSignal/TimingSignal/Sin", nStack + "Layer_0/AddTimingSignal/TimingSignal/Cos", ""}},
	// Layer 0's residual is a dense projection of the raw (un-normalised) input.
	{nStack + "Layer_0/TransformerLayer/AdjustResidualInput/Gather/GatherNd", "GatherNd", []string{nStack + "Layer_0/add", ""}},
	{nStack + "Layer_0/TransformerLayer/layer_postprocess/add", "Add", []string{nStack + "Layer_0/TransformerLayer/MultiheadAttention/Squeeze_1", nStack + "Layer_0/TransformerLayer/AdjustResidualInput/Scatter/ScatterNd"}},
	{nStack + "Layer_1/TransformerLayer/layer_postprocess/add", "Add", []string{nStack + "Layer_1/TransformerLayer/MultiheadAttention/Squeeze_1", nStack + "Layer_0/TransformerLayer/FFN/layer_postprocess/add"}},
	{nStack + "Layer_0/TransformerLayer/FFN/conv1/Relu", "Relu", nil},
	{nStack + "Layer_1/TransformerLayer/FFN/conv1/Relu", "Relu", nil},
	{nStack + "Layer_0/TransformerLayer/MultiheadAttention/DotProductAttention/BaseDotProductAttention/Softmax", "Softmax", nil},
	{nStack + "Layer_1/TransformerLayer/MultiheadAttention/DotProductAttention/BaseDotProductAttention/Softmax", "Softmax", nil},
	// No final layer norm: the pooled value is the last FFN residual sum.
	{nKona + "mul", "Mul", []string{nStack + "Layer_1/TransformerLayer/FFN/layer_postprocess/add", nKona + "ExpandDims"}},
	{nKona + "div", "RealDiv", []string{nKona + "Sum", nKona + "ExpandDims_1"}},
	{nHead + "tanh_layer_0/Tanh", "Tanh", nil},
	{nHead + "l2_normalize", "Mul", nil},
}

// buildModel reads the weights and constants the forward pass needs from the
// graph, finding each through the node that consumes it.
func buildModel(g *graph, la linalg) (*model, error) {
	for _, s := range structure {
		n, err := g.node(s.name, s.op)
		if err != nil {
			return nil, err
		}
		for i, want := range s.inputs {
			if want != "" && (i >= len(n.Input) || n.Input[i] != want) {
				return nil, fmt.Errorf("%w: input %d of %s is not %s", ErrModelFormat, i, s.name, want)
			}
		}
	}
	if v, err := g.scalarI(nKona+"Encode/Greater", "Greater", 1); err != nil || v != -1 {
		return nil, fmt.Errorf("%w: padding id is %d, want -1 (%v)", ErrModelFormat, v, err)
	}
	if v, err := g.scalarI(nKona+"ClipToMaxLength/Less", "Less", 1); err != nil || v != MaxTokens {
		return nil, fmt.Errorf("%w: max length is %d, want %d (%v)", ErrModelFormat, v, MaxTokens, err)
	}

	m := &model{}
	emb, err := g.input(nKona+"Encode/embedding_lookup", "GatherV2", 0)
	if err != nil {
		return nil, err
	}
	if len(emb.shape) != 2 || emb.f == nil {
		return nil, fmt.Errorf("%w: embedding table shape %v", ErrModelFormat, emb.shape)
	}
	m.vocab, m.embDim, m.emb = emb.shape[0], emb.shape[1], emb.f
	inv, err := g.input(nStack+"Layer_0/AddTimingSignal/TimingSignal/mul_2", "Mul", 1, 1, m.embDim/2)
	if err != nil {
		return nil, err
	}
	m.timing = timingTable(inv.f, MaxTokens)

	in := m.embDim
	for li := 0; ; li++ {
		p := fmt.Sprintf("%sLayer_%d/TransformerLayer/", nStack, li)
		if _, ok := g.nodes[p+"MultiheadAttention/qkv_transform_single/Conv2D"]; !ok {
			if li == 0 {
				return nil, fmt.Errorf("%w: no transformer layers", ErrModelFormat)
			}
			break
		}
		L, err := buildLayer(g, la, p, in)
		if err != nil {
			return nil, err
		}
		if m.hidden == 0 {
			m.hidden, m.ffn = L.out.n, L.ff1.n
		}
		if L.out.n != m.hidden || L.ff1.n != m.ffn {
			return nil, fmt.Errorf("%w: layer %d widths differ", ErrModelFormat, li)
		}
		m.layers = append(m.layers, L)
		in = m.hidden
	}

	fw, err := g.input(nHead+"tanh_layer_0/MatMul", "MatMul", 1, m.hidden, LocalDims)
	if err != nil {
		return nil, err
	}
	if m.final, err = la.prepare(fw.f, m.hidden, LocalDims); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrModelFormat, err)
	}
	if m.finalB, err = vec(g, nHead+"tanh_layer_0/BiasAdd", "BiasAdd", 1, LocalDims); err != nil {
		return nil, err
	}
	if m.l2Eps, err = g.scalarF(nHead+"l2_normalize/Maximum", "Maximum", 1); err != nil {
		return nil, err
	}
	return m, nil
}

// buildLayer reads one TransformerLayer whose nodes start with prefix p.
func buildLayer(g *graph, la linalg, p string, in int) (tfLayer, error) {
	L := tfLayer{in: in}
	var err error
	if L.lnAtt, err = readLayerNorm(g, p+"layer_prepostprocess/layer_norm/", in); err != nil {
		return L, err
	}
	qkv, err := g.input(p+"MultiheadAttention/qkv_transform_single/Conv2D", "Conv2D", 1)
	if err != nil {
		return L, err
	}
	if len(qkv.shape) != 4 || qkv.shape[0] != 1 || qkv.shape[1] != 1 || qkv.shape[2] != in || qkv.shape[3]%3 != 0 {
		return L, fmt.Errorf("%w: %s qkv kernel shape %v", ErrModelFormat, p, qkv.shape)
	}
	L.width = qkv.shape[3] / 3
	split, err := g.input(p+"MultiheadAttention/split", "SplitV", 1, 3)
	if err != nil {
		return L, err
	}
	for _, s := range split.i {
		if int(s) != L.width {
			return L, fmt.Errorf("%w: %s q/k/v split %v", ErrModelFormat, p, split.i)
		}
	}
	if L.heads, err = g.scalarI(p+"MultiheadAttention/split_heads/split_last_dimension/Reshape/shape", "Pack", 2); err != nil {
		return L, err
	}
	if L.depth, err = g.scalarI(p+"MultiheadAttention/split_heads/split_last_dimension/Reshape/shape", "Pack", 3); err != nil {
		return L, err
	}
	if L.heads*L.depth != L.width || L.depth%panelW != 0 {
		return L, fmt.Errorf("%w: %s %d heads × %d for width %d", ErrModelFormat, p, L.heads, L.depth, L.width)
	}
	if L.qScale, err = g.scalarF(p+"MultiheadAttention/mul", "Mul", 1); err != nil {
		return L, err
	}
	if L.qkv, err = la.prepare(qkv.f, in, 3*L.width); err != nil {
		return L, fmt.Errorf("%w: %w", ErrModelFormat, err)
	}
	if L.qkvB, err = vec(g, p+"MultiheadAttention/qkv_transform_single/BiasAdd", "BiasAdd", 1, 3*L.width); err != nil {
		return L, err
	}
	ow, err := g.input(p+"MultiheadAttention/output_transform_single/Conv2D", "Conv2D", 1)
	if err != nil {
		return L, err
	}
	if len(ow.shape) != 4 || ow.shape[2] != L.width {
		return L, fmt.Errorf("%w: %s output kernel shape %v", ErrModelFormat, p, ow.shape)
	}
	hidden := ow.shape[3]
	if L.out, err = la.prepare(ow.f, L.width, hidden); err != nil {
		return L, fmt.Errorf("%w: %w", ErrModelFormat, err)
	}
	if L.outB, err = vec(g, p+"MultiheadAttention/output_transform_single/BiasAdd", "BiasAdd", 1, hidden); err != nil {
		return L, err
	}
	if in != hidden {
		rw, err := g.input(p+"AdjustResidualInput/dense/MatMul", "MatMul", 1, in, hidden)
		if err != nil {
			return L, err
		}
		res, err := la.prepare(rw.f, in, hidden)
		if err != nil {
			return L, fmt.Errorf("%w: %w", ErrModelFormat, err)
		}
		L.res = &res
		if L.resB, err = vec(g, p+"AdjustResidualInput/dense/BiasAdd", "BiasAdd", 1, hidden); err != nil {
			return L, err
		}
	}
	if L.lnFFN, err = readLayerNorm(g, p+"FFN/layer_prepostprocess/layer_norm/", hidden); err != nil {
		return L, err
	}
	w1, err := g.input(p+"FFN/conv1/Tensordot/MatMul", "MatMul", 1)
	if err != nil {
		return L, err
	}
	if len(w1.shape) != 2 || w1.shape[0] != hidden {
		return L, fmt.Errorf("%w: %s conv1 shape %v", ErrModelFormat, p, w1.shape)
	}
	ffn := w1.shape[1]
	if L.ff1, err = la.prepare(w1.f, hidden, ffn); err != nil {
		return L, fmt.Errorf("%w: %w", ErrModelFormat, err)
	}
	if L.ff1B, err = vec(g, p+"FFN/conv1/BiasAdd", "BiasAdd", 1, ffn); err != nil {
		return L, err
	}
	w2, err := g.input(p+"FFN/conv2/Tensordot/MatMul", "MatMul", 1, ffn, hidden)
	if err != nil {
		return L, err
	}
	if L.ff2, err = la.prepare(w2.f, ffn, hidden); err != nil {
		return L, fmt.Errorf("%w: %w", ErrModelFormat, err)
	}
	if L.ff2B, err = vec(g, p+"FFN/conv2/BiasAdd", "BiasAdd", 1, hidden); err != nil {
		return L, err
	}
	return L, nil
}

// readLayerNorm reads the scale (input 0 of mul), bias (input 1 of add_1) and
// epsilon (input 1 of add) of the layer norm whose nodes start with p.
func readLayerNorm(g *graph, p string, n int) (layerNorm, error) {
	var ln layerNorm
	var err error
	if ln.scale, err = vec(g, p+"mul", "Mul", 0, n); err != nil {
		return ln, err
	}
	if ln.bias, err = vec(g, p+"add_1", "Add", 1, n); err != nil {
		return ln, err
	}
	if ln.eps, err = g.scalarF(p+"add", "Add", 1); err != nil {
		return ln, err
	}
	return ln, nil
}

// vec returns a float32 vector of length n feeding input i of node name.
func vec(g *graph, name, op string, i, n int) ([]float32, error) {
	t, err := g.input(name, op, i, n)
	if err != nil {
		return nil, err
	}
	if t.f == nil {
		return nil, fmt.Errorf("%w: input %d of %s is not float32", ErrModelFormat, i, name)
	}
	return t.f, nil
}

// timingTable precomputes the graph's timing signal for positions
// 0..maxLen-1: row p is sin(p·inv[j]) for j < len(inv), then cos(p·inv[j]).
// The product is rounded to float32 first, as the graph's Mul does.
func timingTable(inv []float32, maxLen int) []float32 {
	d := 2 * len(inv)
	t := make([]float32, maxLen*d)
	for p := 0; p < maxLen; p++ {
		row := t[p*d : (p+1)*d]
		for j, f := range inv {
			a := float64(float32(p) * f)
			row[j] = float32(math.Sin(a))
			row[len(inv)+j] = float32(math.Cos(a))
		}
	}
	return t
}

// scratch is one worker's activation memory for texts of up to MaxTokens
// tokens; all matrices are row-major with their width as stride.
type scratch struct {
	x    []float32 // T × embDim: stack input
	ln   []float32 // T × max(embDim, hidden): layer-norm output
	qkv  []float32 // T × 3·width
	att  []float32 // T × width: attention heads, concatenated
	h    []float32 // T × hidden: residual stream
	ff   []float32 // T × ffn
	sc   []float32 // T × ldScores: one head's scores / probabilities
	pool []float32 // hidden
	g    gemmScratch
}

// ldScores is the row stride of the score matrix: MaxTokens rounded up to a
// whole panel.
const ldScores = (MaxTokens + panelW - 1) / panelW * panelW

func newScratch(m *model) *scratch {
	maxW := 0
	for _, L := range m.layers {
		maxW = max(maxW, L.width)
	}
	T := MaxTokens
	return &scratch{
		x:    make([]float32, T*m.embDim),
		ln:   make([]float32, T*max(m.embDim, m.hidden)),
		qkv:  make([]float32, T*3*maxW),
		att:  make([]float32, T*maxW),
		h:    make([]float32, T*m.hidden),
		ff:   make([]float32, T*m.ffn),
		sc:   make([]float32, T*ldScores),
		pool: make([]float32, m.hidden),
		g:    gemmScratch{tailA: make([]float32, tileM*max(m.ffn, m.hidden))},
	}
}

// forward embeds one token sequence (1..MaxTokens ids) into out (LocalDims
// values, unit norm). It follows the graph op for op:
//
//	x  = E[id] + (E[id] + timing[pos])                          (T × 256)
//	per layer (pre-norm):
//	  h = Res(x) + OutProj(MHA(LN(x)))   Res = dense 256→512 in layer 0, identity after
//	  h = h + W2·relu(W1·LN(h) + b1) + b2
//	v = tanh(Wf · mean_t h + bf);  out = v / √max(‖v‖², 1e-12)
//
// With a single sequence there is no padding, so the graph's masks (−1e9
// attention bias, masked mean) are no-ops and omitted. With zero ids the
// mean is defined as 0 (the graph divides by max(T, 1)).
func (m *model) forward(la linalg, ids []int, s *scratch, out []float32) {
	T := len(ids)
	E, H := m.embDim, m.hidden
	x := s.x[:T*E]
	for t, id := range ids {
		e := m.emb[id*E : (id+1)*E]
		tm := m.timing[t*E : (t+1)*E]
		row := x[t*E : (t+1)*E]
		for j := range row {
			row[j] = e[j] + (e[j] + tm[j])
		}
	}
	h := s.h[:T*H]
	for li := 0; T > 0 && li < len(m.layers); li++ {
		L := &m.layers[li]
		in, inW := h, H
		if li == 0 {
			in, inW = x, E
		}
		m.attentionBlock(la, L, in, inW, h, T, s)
		m.ffnBlock(la, L, h, T, s)
	}

	pool := s.pool[:H]
	for j := range pool {
		var sum float64
		for t := 0; t < T; t++ {
			sum += float64(h[t*H+j])
		}
		pool[j] = float32(sum / float64(max(T, 1)))
	}
	copy(out, m.finalB)
	la.mulAdd(1, pool, H, &m.final, out, LocalDims, &s.g)
	var ss float64
	for j, v := range out {
		v = float32(math.Tanh(float64(v)))
		out[j] = v
		ss += float64(v) * float64(v)
	}
	inv := float32(1 / math.Sqrt(math.Max(ss, float64(m.l2Eps))))
	for j := range out {
		out[j] *= inv
	}
}

// attentionBlock computes h = Res(in) + OutProj(MultiHeadAttention(LN(in))).
// For layers without a residual projection in and h are the same matrix.
func (m *model) attentionBlock(la linalg, L *tfLayer, in []float32, inW int, h []float32, T int, s *scratch) {
	H, W, W3, d := m.hidden, L.width, 3*L.width, L.depth
	ln := s.ln[:T*inW]
	applyLayerNorm(in, ln, T, inW, L.lnAtt)

	qkv := s.qkv[:T*W3]
	fillRows(qkv, L.qkvB, T)
	la.mulAdd(T, ln, inW, &L.qkv, qkv, W3, &s.g)
	for t := 0; t < T; t++ {
		q := qkv[t*W3 : t*W3+W]
		for j := range q {
			q[j] *= L.qScale
		}
	}

	att := s.att[:T*W]
	clear(att)
	sc := s.sc[:T*ldScores]
	for hd := 0; hd < L.heads; hd++ {
		clear(sc)
		la.mulAddBT(T, T, d, qkv[hd*d:], W3, qkv[W+hd*d:], W3, sc, ldScores, &s.g)
		softmaxRows(sc, T, T, ldScores)
		la.mulAddB(T, d, T, sc, ldScores, qkv[2*W+hd*d:], W3, att[hd*d:], W, &s.g)
	}

	if L.res != nil {
		for t := 0; t < T; t++ {
			row := h[t*H : (t+1)*H]
			for j := range row {
				row[j] = L.resB[j] + L.outB[j]
			}
		}
		la.mulAdd(T, in, inW, L.res, h, H, &s.g)
	} else {
		addRows(h, L.outB, T)
	}
	la.mulAdd(T, att, W, &L.out, h, H, &s.g)
}

// ffnBlock computes h += W2·relu(W1·LN(h) + b1) + b2.
func (m *model) ffnBlock(la linalg, L *tfLayer, h []float32, T int, s *scratch) {
	H, F := m.hidden, m.ffn
	ln := s.ln[:T*H]
	applyLayerNorm(h, ln, T, H, L.lnFFN)
	ff := s.ff[:T*F]
	fillRows(ff, L.ff1B, T)
	la.mulAdd(T, ln, H, &L.ff1, ff, F, &s.g)
	for i, v := range ff {
		if v < 0 {
			ff[i] = 0
		}
	}
	addRows(h, L.ff2B, T)
	la.mulAdd(T, ff, F, &L.ff2, h, H, &s.g)
}

// applyLayerNorm normalises each of the T rows (width n) of src into dst.
func applyLayerNorm(src, dst []float32, T, n int, ln layerNorm) {
	for t := 0; t < T; t++ {
		x := src[t*n : (t+1)*n]
		y := dst[t*n : (t+1)*n]
		var sum float64
		for _, v := range x {
			sum += float64(v)
		}
		mean := float32(sum / float64(n))
		var sq float64
		for _, v := range x {
			d := float64(v - mean)
			sq += d * d
		}
		rs := float32(1 / math.Sqrt(float64(float32(sq/float64(n))+ln.eps)))
		for j, v := range x {
			y[j] = ln.scale[j]*rs*(v-mean) + ln.bias[j]
		}
	}
}

// softmaxRows applies a softmax to the first n entries of each of the T rows
// of a (stride ld).
func softmaxRows(a []float32, T, n, ld int) {
	for t := 0; t < T; t++ {
		row := a[t*ld : t*ld+n]
		mx := row[0]
		for _, v := range row[1:] {
			mx = max(mx, v)
		}
		var sum float64
		for j, v := range row {
			e := math.Exp(float64(v - mx))
			row[j] = float32(e)
			sum += e
		}
		inv := 1 / sum
		for j, v := range row {
			row[j] = float32(float64(v) * inv)
		}
	}
}

// fillRows sets each of the T rows of a (width len(b)) to b.
func fillRows(a, b []float32, T int) {
	n := len(b)
	for t := 0; t < T; t++ {
		copy(a[t*n:(t+1)*n], b)
	}
}

// addRows adds b to each of the T rows of a (width len(b)).
func addRows(a, b []float32, T int) {
	n := len(b)
	for t := 0; t < T; t++ {
		row := a[t*n : (t+1)*n]
		for j := range row {
			row[j] += b[j]
		}
	}
}
