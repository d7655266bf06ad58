"""vpsim.golden: the golden model's functions from Python."""
import os
import re

import pytest

from vpsim import golden
import vpsim


def hex_tokens(text):
    return [int(w, 16) for line in text.splitlines() for w in re.findall(r"0x[0-9A-Fa-f]{8}", line.split("//")[0])]


def test_assemble_equals_cli_asm(cli, src):
    path = os.path.join(src, "examples", "shaders", "transform_light.vsh")
    with open(path) as f:
        got = golden.assemble(f.read(), path)
    assert got["bytecode"] == hex_tokens(cli("asm", path).stdout)


def test_disassemble_then_assemble_gives_the_bytecode_again(src):
    with open(os.path.join(src, "examples", "shaders", "transform_light.vsh")) as f:
        bc = golden.assemble(f.read())["bytecode"]
    assert golden.assemble(golden.disassemble(bc))["bytecode"] == bc


def test_an_assembly_error_is_located():
    with pytest.raises(vpsim.InputError, match=r"^x\.vsh:2:"):
        golden.assemble("vs.1.1\nmov oPos, q9\n", "x.vsh")


def test_execute_runs_the_reference_interpreter():
    bc = golden.assemble("vs.1.1\nmov r0, v2\nmad oPos, v0, c0, r0\nrcp oD0, v1.x\n")["bytecode"]
    out = golden.execute(bc, inputs=[(1, 2, 3, 4), (4, 0, 0, 0), (0.5, 0, 0, -1)], constants=[(2, 2, 2, 2)])
    assert out["oPos"] == [2.5, 4, 6, 7]
    assert out["oD0"] == [0.25, 0.25, 0.25, 0.25]


def test_validate_reports_a_read_before_write():
    bc = golden.assemble("vs.1.1\nmov oPos, r0\n")["bytecode"]
    v = golden.validate(bc)
    assert any("V5" in d for d in v["diagnostics"])
    assert not golden.validate(bc, profile=["temps=strict"])["valid"]


def test_decode_declaration_from_text():
    d = golden.decode_declaration("D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), "
                                  "D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR), D3DVSD_END()")
    assert d["valid"]
    s = d["streams"][0]
    assert s["size"] == 16
    assert [(e["register"], e["offset"]) for e in s["elements"]] == [(0, 0), (5, 12)]


def test_a_bad_declaration_is_invalid_with_a_rule():
    d = golden.decode_declaration([0x20000000, 0x40021003])  # no END
    assert not d["valid"]
    assert any(re.search(r"D\d+", x) for x in d["diagnostics"])
