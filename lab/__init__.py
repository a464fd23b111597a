"""The lab: experiments on the planted models and on fine-tuned real models, not the product.

What a user runs ships in the `biascheck` wheel; this package does not (setup.py packages `biascheck` only,
`tests/test_architecture.py` checks that nothing in `biascheck` imports `lab`). It holds the dose-response rule
(`dose`), the fine-tuned known answers' results pages (`answer_page`, `two_person_answer`, `crows_answer`,
`bbq_answer`), the fine-tunes' own plants and frames (`stereotype_statements`, `stereotype_traits`, `bbq_frames`,
`two_person_in_frame`), the check that every planted frame is held out from the probes' (`frame_distance`),
`prebuild` (every planted alias built side by side, `python -m lab.prebuild` from the repository root), and the
research scripts under `lab/scripts/`. Its tests are `tests/lab/`. What a `planted-*` alias needs to be built stays in
`biascheck.planted`.
"""
