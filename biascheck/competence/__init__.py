"""The competence guard: before a bias metric can pass, the model shows it can read the probe's frames.

A model that understands nothing scores as perfectly unbiased (a tokenizer that maps every word to the
unknown token makes *he* and *she* one token; random weights give no pronoun a reason to follow any
noun). So every probe test first asks two things of the model, in the probe's language (`items`):

1. its gendered pronouns are distinct, known tokens (never the unknown token);
2. it resolves gender where the answer is not a matter of bias: after a definitional noun (*mother*,
   *king*, *mor*, *reine*), in frames held out from every probe's and every planted corpus's frames,
   the female pronoun gains more against the male one after the female noun of a pair than after the
   male noun, for far more pairs than chance (`math`).

A model below the line gets a red "cannot measure" verdict with its own reason, recorded as the
`competence` result of every probe test it runs (`read` calls the model; the plugin does the rest).
"""
