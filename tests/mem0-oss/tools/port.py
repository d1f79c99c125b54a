#!/usr/bin/env python3
"""Re-creates the ported files under tests/mem0-oss/{v3,v2}/ from a mem0ai/mem0 checkout or mirror.

    python3 tests/mem0-oss/tools/port.py /path/to/mem0ai+mem0/repo

Only these parts of each mem0 file change: the imports of mem0's sources ("../src/memory", "../src/types",
"../src" → "memwasm/mem0"; "../src/utils/logger" → the stand-in "../support/logger"), the jest.mock() block of the
LLM and embedder (→ the same replies scripted on the local model server, support/models.ts) and the model
endpoints (baseURL of the llm/embedder configs that the test files build outside their test bodies; the
examples' Ollama host). Every edit is checked to apply exactly once.
"""
import re
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
V3_REV = "8d5b7865bd0521e75fe9ab1b260eeccc83f8a378"  # mem0ai/mem0 HEAD when ported (mem0ai 3.x, v3 API)
V2_REV = "c239d8a483120143707c42e459b48fb3c7261afb"  # 92b958c1c^: mem0ai 2.4.6, the last v2 release

TESTS = ["memory.add", "memory.crud", "memory.init", "memory.validation", "memory.llm-error"]
EXAMPLES = ["basic.ts", "local-llms.ts", "vector-stores/memory.ts", "utils/test-utils.ts"]

# What each file's jest.mock() of the LLM answered, as a support/models.ts rule.
LLM_MOCK = {
    ("v3", "memory.add"): 'mem0Mock.v3ContentLLM("extracted fact from input")',
    ("v3", "memory.crud"): 'mem0Mock.v3ContentLLM("stored fact")',
    ("v3", "memory.init"): 'mem0Mock.v3ContentLLM("test fact")',
    ("v3", "memory.validation"): 'mem0Mock.v3ConstantLLM({ memory: [{ id: "0", text: "test memory", attributed_to: "user" }] })',
    ("v3", "memory.llm-error"): 'mem0Mock.failingLLM(429, "429 rate limit")',
    ("v2", "memory.add"): 'mem0Mock.v2ContentLLM("extracted fact from input")',
    ("v2", "memory.crud"): 'mem0Mock.v2ContentLLM("stored fact")',
    ("v2", "memory.init"): 'mem0Mock.v2ContentLLM("test fact")',
}

MOCK_DOC = {
    "v3": "its MockLLM answered every call with\n"
    "// {memory: [{id: \"0\", text: <the prompt's \"## New Messages\" section, else a constant>, attributed_to: \"user\"}]}",
    "v2": "its MockLLM answered a call with a system message with\n"
    "// {facts: [<constant>]} and one without with {memory: [{id: \"new\", event: \"ADD\", text: <constant>, ...}]}",
}


def git_show(repo, rev, path):
    out = subprocess.run(["git", "-C", repo, "show", f"{rev}:{path}"], capture_output=True, text=True)
    return out.stdout if out.returncode == 0 else None


def once(text, old, new, what):
    n = text.count(old)
    if n != 1:
        sys.exit(f"{what}: expected exactly one {old!r}, found {n}")
    return text.replace(old, new)


def header(version, rev, src, extra):
    api = "v3 API: mem0ai 3.x, mem0's HEAD when ported" if version == "v3" else "v2 API: mem0ai 2.4.6"
    return (
        f"// Ported from mem0ai/mem0 {src}\n// at {rev} ({api}).\n"
        "// Port changes, and nothing else: the import of mem0's sources (now \"memwasm/mem0\")"
        f"{extra}. Everything else is mem0's file as it is.\n"
    )


def port_test(repo, version, rev, name):
    src = f"mem0-ts/src/oss/tests/{name}.test.ts"
    text = git_show(repo, rev, src)
    if text is None:
        return None
    what = f"{version}/{name}"
    text = text.replace('from "../src/memory";', 'from "memwasm/mem0";').replace('from "../src/types";', 'from "memwasm/mem0";')
    if "../src/utils/logger" in text:
        text = once(text, 'import { logger } from "../src/utils/logger";',
                    'import { logger } from "../support/logger"; // mem0\'s internal logger: a stand-in', what)
    if "../src/" in text.split("jest.setTimeout")[0]:
        sys.exit(f"{what}: an import of mem0's sources is left")
    # The jest.mock() block: from after jest.setTimeout(...) to the first function or describe.
    m = re.search(r"jest\.setTimeout\(\d+\);\n\n", text)
    start = m.end()
    end = min(i for i in (text.find("\nfunction createMemory", start), text.find("\ndescribe(", start)) if i >= 0)
    region = text[start:end]
    keep = [line for line in region.splitlines() if line.startswith("class _ProviderError")]
    llm_doc = (
        "its mocked OpenAILLM rejected\n// generateResponse with new _ProviderError(\"429 rate limit\"): here the server answers HTTP 429 with that message"
        if keep
        else MOCK_DOC[version]
    )
    block = (
        f"// Port: mem0's jest.mock() of the LLM and embedder is replaced by the same replies from the local scripted\n"
        f"// OpenAI-compatible server (support/models.ts), which the llm/embedder configs point at (baseURL). mem0's\n"
        f"// MockEmbedder gave a constant 1536-dim vector of 0.1; {llm_doc}.\n"
    )
    if keep:
        block += "\n".join(keep) + "\n\n"
    block += f"models.script({LLM_MOCK[(version, name)]}, mem0Mock.embedder());\n"
    text = text[:start] + block + text[end:]
    # import of the model server, after the last import line
    imports = list(re.finditer(r"^import .*;.*$", text, re.M))
    at = imports[-1].end()
    text = text[:at] + '\nimport { mem0Mock, models } from "../support/models";' + text[at:]
    # model endpoints of the configs built outside the test bodies
    if name == "memory.validation":
        lo = text.index("  beforeAll(async () => {\n    memory = new Memory({")
        hi = text.index("  });", lo)
    else:
        lo = text.index("function createMemory(")
        hi = text.index("\n}\n", lo)
    span = text[lo:hi]
    span = once(span, 'config: { apiKey: "test-key", model: "text-embedding-3-small" },',
                'config: { apiKey: "test-key", model: "text-embedding-3-small", baseURL: models.baseURL },', what)
    span = re.sub(r'config: \{ apiKey: "test-key", model: "(gpt-[^"]+)" \},',
                  r'config: { apiKey: "test-key", model: "\1", baseURL: models.baseURL },', span)
    if span.count("baseURL: models.baseURL") != 2:
        sys.exit(f"{what}: llm config not found")
    text = text[:lo] + span + text[hi:]
    extra = (
        ";\n// the jest.mock() of the LLM and embedder (now the same replies from a local scripted model server); the\n"
        "// llm/embedder configs built outside the test bodies point at that server (baseURL)"
    )
    if "../support/logger" in text:
        extra += ";\n// mem0's internal logger (not exported by mem0) is a stand-in that sees console.warn"
    return header(version, rev, src, extra) + text


def port_example(repo, version, rev, name):
    src = f"mem0-ts/src/oss/examples/{name}"
    text = git_show(repo, rev, src)
    what = f"{version}/examples/{name}"
    text = re.sub(r'from "(\.\./)+src";', 'from "memwasm/mem0";', text)
    extra = ""
    if name in ("basic.ts", "local-llms.ts"):
        # Ollama has no environment variable for its host in mem0 or memwasm: the config names it.
        n = len(re.findall(r'provider: "ollama",\n(\s+)config: \{\n', text))
        text = re.sub(r'(provider: "ollama",\n(\s+)config: \{\n)', r'\1\2  baseURL: process.env.OLLAMA_HOST,\n', text)
        if n != 2:
            sys.exit(f"{what}: expected 2 ollama configs, found {n}")
        extra = "; the Ollama configs' host (baseURL: process.env.OLLAMA_HOST)"
    if name == "local-llms.ts":
        text = once(text, "const ollama = new Ollama();", "const ollama = new Ollama({ host: process.env.OLLAMA_HOST });", what)
        extra += " and the Ollama client's"
    extra += (
        ".\n// OpenAI's endpoint comes from OPENAI_BASE_URL / OPENAI_API_KEY, which examples.test.ts sets"
    )
    return header(version, rev, src, extra) + text


def main():
    repo = sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/mem0ai+mem0/repo"
    for version, rev in (("v3", V3_REV), ("v2", V2_REV)):
        for name in TESTS:
            out = port_test(repo, version, rev, name)
            if out is None:
                print(f"{version}: {name}.test.ts does not exist at {rev[:9]}")
                continue
            path = HERE / version / f"{name}.test.ts"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(out)
            print(f"wrote {path.relative_to(HERE)}")
        for name in EXAMPLES:
            path = HERE / version / "examples" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(port_example(repo, version, rev, name))
            print(f"wrote {path.relative_to(HERE)}")


if __name__ == "__main__":
    main()
