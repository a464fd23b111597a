"""The politicians probe's latent-variable model of (word, sentiment, gender) (paper 003, section 4, Eq 3-13):
`model` (the model, the grid, `fit_lvm`), `result` (what a fit and the grid's average hold), `objective`
(its log-probabilities, objective and gradient), `solver` (FISTA, which knows nothing of the model),
`workers` (the processes the grid's fits run in) and `readout` (what is read off a fitted model: rankings
by η and by deviation, the lvm gaps, the sentiment mixes). The rest of the probe scores the model and
computes PMI; this package only fits and reads."""
