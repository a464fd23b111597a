"""One device/dtype parser for the plugin, load_model and the CLI: the same values everywhere."""

import pytest

from biascheck.devices import device_kind, parse_device, parse_dtype
from biascheck.errors import ConfigError


@pytest.mark.parametrize(
    ("value", "expected"), [("auto", "auto"), ("CPU", "cpu"), ("cuda:1", "cuda:1"), ("mps", "mps")]
)
def test_devices(value, expected):
    assert parse_device(value) == expected


@pytest.mark.parametrize(("device", "kind"), [("cpu", "cpu"), ("cuda:1", "cuda"), ("cuda", "cuda"), ("mps", "mps")])
def test_a_devices_kind_drops_its_index(device, kind):
    import torch

    assert device_kind(device) == kind
    assert device_kind(torch.device(device)) == kind


@pytest.mark.parametrize(
    ("value", "expected"), [("float16", "float16"), ("torch.bfloat16", "bfloat16"), ("AUTO", "auto")]
)
def test_dtypes(value, expected):
    assert parse_dtype(value) == expected


@pytest.mark.parametrize(
    ("parse", "value", "message"),
    [
        (parse_device, "gpu", "'gpu' is not a device"),
        (parse_device, "cuda:x", "Use auto, cpu, cuda, cuda:N or mps"),
        (parse_dtype, "fp16", "Did you mean 'float16'?"),
        (parse_dtype, "bf16", "Did you mean 'bfloat16'?"),
        (parse_dtype, "float64", "Use one of: auto, float32, tf32, bfloat16, float16"),
    ],
)
def test_bad_values(parse, value, message):
    with pytest.raises(ConfigError, match=message):
        parse(value)


def test_load_model_and_the_cli_refuse_what_the_plugin_refuses(capsys):
    from biascheck.cli import main
    from biascheck.models import resolve_dtype

    with pytest.raises(ConfigError, match="Did you mean 'float16'"):
        resolve_dtype("fp16", "cpu")
    with pytest.raises(SystemExit):
        main(["fluctuation", "--model-list", "x.csv", "--device", "gpu"])
    assert "'gpu' is not a device" in capsys.readouterr().err
