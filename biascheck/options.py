"""The pytest options biascheck adds (`biascheck.plugin` registers them): each flag with its argparse
arguments; every value is checked by its type= parser, which quotes the bad value. docs/options.md documents
each (tests/test_docs.py checks that none is missing)."""

from __future__ import annotations

from typing import Any

from biascheck.registry import DEFAULT_MODEL
from biascheck.run_config import (
    parse_batch_size,
    parse_device,
    parse_dir,
    parse_dtype,
    parse_language,
    parse_model,
    parse_model_arg,
    parse_model_list,
    parse_run_name,
    parse_setting,
    parse_tier,
)

# fmt: off
# (flag, argparse keyword arguments); every value is checked by its type= parser, which quotes the bad value.
OPTIONS: tuple[tuple[str, dict[str, Any]], ...] = (
    ("--model", dict(dest="bias_models", action="append", type=parse_model, metavar="NAME",
                     help=f"model alias, hub id or local directory; repeat for several (default: {DEFAULT_MODEL})")),
    ("--model-arg", dict(dest="bias_model_args", action="append", type=parse_model_arg, metavar="KEY=VALUE",
                         help="how to load the models: revision, trust_remote_code, gguf_file, subfolder, adapter")),
    ("--device", dict(dest="bias_device", default="auto", type=parse_device,
                      help="auto, cpu, cuda, cuda:N or mps (default: auto = cuda, else mps, else cpu)")),
    ("--dtype", dict(dest="bias_dtype", default="auto", type=parse_dtype,
                     help="auto, float32, tf32, bfloat16, float16 (default: auto = float32; half if it does not fit)")),
    ("--batch-size", dict(dest="bias_batch_size", default=None, type=parse_batch_size, metavar="N",
                          help="sequences per forward pass, or 'auto' (default: auto; backs off on out-of-memory)")),
    ("--bias-profile", dict(dest="bias_profile", default="default", metavar="NAME",
                            help="threshold profile: thresholds/NAME.toml, or a .toml path (default: default)")),
    ("--bias-report", dict(dest="bias_report", default="bias-report", metavar="DIR",
                           help="results.json, summary.md and plots go here; 'none' to skip (default: bias-report)")),
    ("--bias-plots", dict(dest="bias_plots", default="auto", choices=("auto", "all", "none"),
                          help="each probe's figures and texts per model: all, none, or auto (default: all, but none "
                               "with --model-list, where results.json holds every number of every checkpoint)")),
    ("--bias-data", dict(dest="bias_data", default=None, type=parse_dir, metavar="DIR",
                         help="reference-data mirror (default: $BIASCHECK_DATA_DIR, then the cache, then download)")),
    ("--bias-language", dict(dest="bias_language", default=None, type=parse_language, metavar="CODES",
                             help="languages every --model covers, e.g. en or en,no (default: the registry entry, "
                                  "else the model card's language:, else en)")),
    ("--bias-any-language", dict(dest="bias_any_language", action="store_true",
                                 help="run every probe whatever language the model covers")),
    ("--bias-tier", dict(dest="bias_tier", default=None, type=parse_tier, metavar="TIER",
                         help="quick (subsampled items, for PRs on CPU), full (the papers' designs) or auto "
                              "(default: $BIASCHECK_TIER, else auto = full on a CUDA GPU, quick elsewhere)")),
    ("--bias-timings", dict(dest="bias_timings", action="store_true",
                            help="print the run's time by probe and stage (tokenise, forward, lm_head, bootstrap, "
                                 "...); results.json records it always")),
    ("--bias-set", dict(dest="bias_settings", action="append", type=parse_setting, metavar="PROBE.KEY=VALUE",
                        help="a probe setting, e.g. natural_prompts.limit=50; repeatable (see `biascheck probes`)")),
    ("--model-list", dict(dest="bias_model_list", default=None, type=parse_model_list, metavar="FILE",
                          help="CSV (model,step,seed) or TOML ([[checkpoint]]) list of checkpoints, added to --model")),
    ("--bias-ray", dict(dest="bias_ray", action="store_true",
                        help="run each model of the run as a Ray task (pip install biascheck[ray]); local cluster")),
    ("--bias-ray-address", dict(dest="bias_ray_address", default=None, metavar="ADDRESS",
                                help="with --bias-ray: join the Ray cluster at ADDRESS instead of starting one")),
    ("--bias-store", dict(dest="bias_store", default=None, metavar="PATH",
                          help="results store, an SQLite file (default: .biascheck/results.sqlite)")),
    ("--bias-save", dict(dest="bias_save", default=None, type=parse_run_name, metavar="NAME",
                         help="save this run in the store under NAME (a release tag, commit, checkpoint step)")),
    ("--bias-baseline", dict(dest="bias_baseline", default=None, type=parse_run_name, metavar="NAME",
                             help="compare with the saved run NAME; a regression beyond the noise fails the session")),
    ("--bias-baseline-regen", dict(dest="bias_baseline_regen", action="store_true",
                                   help="save this run as the --bias-baseline run, replacing it; nothing is judged")),
    ("--bias-allow-mismatch", dict(dest="bias_allow_mismatch", action="store_true",
                                   help="compare with a baseline whose dtype, device, prefix, data... differ")),
    ("--bias-accept-partial", dict(dest="bias_accept_partial", action="store_true",
                                   help="let a partial run (-k, -m, --lf, node ids) become the baseline it replaces")),
    ("--bias-noise", dict(dest="bias_noise", default=None, type=parse_run_name, metavar="NAME",
                          help="a saved run of several checkpoints/seeds whose spread per metric is the noise band")),
)
# fmt: on
