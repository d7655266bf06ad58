"""The golden model's functions (docs/python.md, "The golden model"): the vertex shader
assembler, disassembler, validator and reference interpreter, and the vertex declaration's text
form and decoder. Bytecode and declarations are lists of 32-bit tokens. Errors raise
vpsim.InputError with the located message `vpsim asm` / `vpsim decl` print."""

from . import _core


def assemble(text, filename="<input>", const_count=96, d3d9=False):
    """vs.1.1 source -> {"bytecode": [tokens], "const_tokens": [the defs as declaration
    tokens], "warnings": ["file:line:column: warning: ..."]}."""
    return _core.assemble(text, filename, const_count, d3d9)


def disassemble(bytecode):
    """Bytecode -> the canonical source text (`vpsim asm --disassemble`)."""
    return _core.disassemble(list(bytecode))


def validate(bytecode, profile=(), const_count=0):
    """{"valid", "diagnostics" (text), "slots", "input_reads", "outputs_written", "relative"};
    profile: semantics options ("masks=strict"); const_count: 0 keeps the profile's."""
    return _core.validate(list(bytecode), list(profile), const_count)


def execute(bytecode, inputs=(), constants=(), profile=(), const_count=0):
    """The reference interpreter on one vertex: inputs v0.. and constants c0.. as 4-tuples (the
    rest 0); returns {"oPos": [x, y, z, w], "oD0", "oD1", "oFog", "oPts", "oT0".."oT7"}."""
    return _core.execute(list(bytecode), [list(v) for v in inputs], [list(c) for c in constants], list(profile),
                         const_count)


def declaration_tokens(text, filename="<input>"):
    """A declaration's text (D3DVSD_* macros, a C array, hex words) -> its tokens."""
    return _core.declaration_tokens(text, filename)


def declaration_text(tokens):
    """Tokens -> the declaration's canonical text."""
    return _core.declaration_text(list(tokens))


def decode_declaration(tokens, lenient=False, const_count=96, max_length=4096):
    """The declaration decoder: {"valid", "length", "diagnostics", "events", "streams" (stream,
    tessellator, size, elements: register, name, type, offset, size), "constants"}; a text is
    parsed first."""
    if isinstance(tokens, str):
        tokens = declaration_tokens(tokens)
    return _core.decode_declaration(list(tokens), lenient, const_count, max_length)
