"""Validates codeagent's tool definitions for LLM APIs with the providers' own SDK types.

Usage: check_definitions.py FOLDER, where FOLDER holds PROVIDER.{lenient,strict}.json files as
tests/library/providers.rs writes them. Every tool is validated with the SDK's request type through
pydantic, unknown keys are rejected (against the TypedDict's annotations or the model's fields),
and the OpenAI strict files are checked node by node against the Structured Outputs rules.
Exits non-zero, listing every problem, when anything is off.
"""

import json
import sys
import typing
from pathlib import Path

import anthropic
import openai
import pydantic
from anthropic.types import ToolParam
from google.genai import types as genai
from openai.types.chat import ChatCompletionToolParam
from openai.types.responses import FunctionToolParam
from openai.types.shared_params import FunctionDefinition

problems: list[str] = []

OPENAI_FORMATS = {"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}
ANTHROPIC_FORMATS = OPENAI_FORMATS | {"uri"}
OPENAI_UNSUPPORTED = {
    "allOf", "not", "if", "then", "else", "dependentRequired", "dependentSchemas", "dependencies",
    "patternProperties", "propertyNames", "unevaluatedProperties", "unevaluatedItems", "default",
    "contains", "minContains", "maxContains", "prefixItems", "$schema", "minLength", "maxLength",
    "uniqueItems", "minProperties", "maxProperties",
}
ANTHROPIC_ALLOWED = {
    "type", "enum", "const", "anyOf", "allOf", "description", "title", "properties", "required",
    "additionalProperties", "format", "items", "minItems", "$ref", "$defs",
}


def problem(where: str, message: str) -> None:
    problems.append(f"{where}: {message}")


def unknown_keys(where: str, value: dict, typed_dict: type) -> None:
    allowed = set(typing.get_type_hints(typed_dict, include_extras=False))
    for key in value:
        if key not in allowed:
            problem(where, f"key {key!r} is not a field of {typed_dict.__module__}.{typed_dict.__qualname__}")


def validate(where: str, value: object, kind: object) -> None:
    try:
        pydantic.TypeAdapter(kind).validate_python(value, strict=True)
    except pydantic.ValidationError as error:
        problem(where, f"not a valid {kind}: {error}")


def nodes(schema: object, path: str = "#"):
    """Every subschema with its path."""
    if not isinstance(schema, dict):
        return
    yield path, schema
    for key in ("properties", "$defs"):
        for name, sub in (schema.get(key) or {}).items():
            yield from nodes(sub, f"{path}/{key}/{name}")
    for key in ("anyOf", "oneOf", "allOf"):
        for index, sub in enumerate(schema.get(key) or []):
            yield from nodes(sub, f"{path}/{key}/{index}")
    for key in ("items", "additionalProperties"):
        if isinstance(schema.get(key), dict):
            yield from nodes(schema[key], f"{path}/{key}")


def is_object(node: dict) -> bool:
    kind = node.get("type")
    return kind == "object" or (isinstance(kind, list) and "object" in kind) or "properties" in node


def check_openai_strict(where: str, schema: dict) -> None:
    if schema.get("type") != "object":
        problem(where, "the root is not an object")
    for path, node in nodes(schema):
        here = f"{where} {path}"
        for key in OPENAI_UNSUPPORTED & set(node):
            problem(here, f"{key!r} is not supported in strict mode")
        if "oneOf" in node:
            problem(here, "'oneOf' is not supported in strict mode (anyOf is)")
        if "format" in node and node["format"] not in OPENAI_FORMATS:
            problem(here, f"format {node['format']!r} is not supported")
        if not any(key in node for key in ("type", "enum", "anyOf", "$ref", "const")):
            problem(here, "no type")
        if is_object(node):
            if node.get("additionalProperties") is not False:
                problem(here, "additionalProperties is not false")
            if set(node.get("required") or []) != set(node.get("properties") or {}):
                problem(here, "not every property is required")


def check_anthropic_strict(where: str, schema: dict) -> None:
    if "$defs" in schema:
        problem(where, "recursive schemas are not supported")
    for path, node in nodes(schema):
        here = f"{where} {path}"
        for key in set(node) - ANTHROPIC_ALLOWED:
            problem(here, f"{key!r} is not in Anthropic's strict subset")
        if "format" in node and node["format"] not in ANTHROPIC_FORMATS:
            problem(here, f"format {node['format']!r} is not supported")
        if "minItems" in node and node["minItems"] not in (0, 1):
            problem(here, "minItems other than 0 or 1")
        if isinstance(node.get("type"), list):
            problem(here, "a list of types")
        if is_object(node) and node.get("additionalProperties") is not False:
            problem(here, "additionalProperties is not false")


def check_openai_chat(where: str, tools: list, strict: bool) -> None:
    for index, tool in enumerate(tools):
        here = f"{where}[{index}]"
        validate(here, tool, ChatCompletionToolParam)
        unknown_keys(here, tool, typing.get_args(ChatCompletionToolParam)[0] if typing.get_args(ChatCompletionToolParam) else ChatCompletionToolParam)
        function = tool.get("function", {})
        unknown_keys(f"{here}.function", function, FunctionDefinition)
        if function.get("strict") is not strict:
            problem(here, f"strict is not {strict}")
        if strict:
            check_openai_strict(f"{here} {function.get('name')}", function["parameters"])


def check_openai_responses(where: str, tools: list, strict: bool) -> None:
    for index, tool in enumerate(tools):
        here = f"{where}[{index}]"
        validate(here, tool, FunctionToolParam)
        unknown_keys(here, tool, FunctionToolParam)
        if tool.get("strict") is not strict:
            problem(here, f"strict is not {strict}")
        if strict:
            check_openai_strict(f"{here} {tool.get('name')}", tool["parameters"])


def check_anthropic(where: str, tools: list, strict: bool) -> None:
    for index, tool in enumerate(tools):
        here = f"{where}[{index}]"
        validate(here, tool, ToolParam)
        unknown_keys(here, tool, ToolParam)
        if tool.get("strict", False) is not strict:
            problem(here, f"strict is not {strict}")
        if strict:
            check_anthropic_strict(f"{here} {tool.get('name')}", tool["input_schema"])


class StrictTool(genai.Tool):
    """google.genai's Tool, refusing unknown keys at every level."""

    model_config = pydantic.ConfigDict(extra="forbid")


class StrictDeclaration(genai.FunctionDeclaration):
    model_config = pydantic.ConfigDict(extra="forbid")


def check_gemini(where: str, tool: dict, strict: bool) -> None:
    if strict:
        problem(where, "Gemini has no strict form")
    if not isinstance(tool, dict) or set(tool) != {"functionDeclarations"}:
        problem(where, "not one {'functionDeclarations': [...]} object")
        return
    try:
        parsed = StrictTool.model_validate(tool)
    except pydantic.ValidationError as error:
        problem(where, f"not a valid google.genai Tool: {error}")
        return
    if parsed.function_declarations is None or len(parsed.function_declarations) != len(tool["functionDeclarations"]):
        problem(where, "declarations lost")
    for index, declaration in enumerate(tool["functionDeclarations"]):
        here = f"{where}.functionDeclarations[{index}]"
        try:
            StrictDeclaration.model_validate(declaration)
        except pydantic.ValidationError as error:
            problem(here, f"not a valid google.genai FunctionDeclaration: {error}")
        name = declaration.get("name", "")
        if not (name[:1].isalpha() or name[:1] == "_") or len(name) > 64 or not all(
            c.isascii() and (c.isalnum() or c in "_.:-") for c in name
        ):
            problem(here, f"name {name!r} is not a valid Gemini function name")
        schema = declaration.get("parametersJsonSchema", {})
        if "$schema" in schema:
            problem(here, "$schema in parametersJsonSchema")
        for path, node in nodes(schema):
            if path != "#" and "$defs" in node:
                problem(f"{here} {path}", "$defs below the root")
            if "$ref" in node and set(node) - {"$ref", "description"}:
                problem(f"{here} {path}", "keys beside $ref other than description")


def main() -> int:
    folder = Path(sys.argv[1])
    checkers = {
        "openai": check_openai_chat,
        "openai-responses": check_openai_responses,
        "anthropic": check_anthropic,
        "gemini": check_gemini,
    }
    files = sorted(folder.glob("*.json"))
    for file in files:
        provider, mode = file.stem.rsplit(".", 1)
        definitions = json.loads(file.read_text())
        checkers[provider](file.name, definitions, mode == "strict")
        if provider != "gemini":
            for tool in definitions:
                name = tool.get("name") or tool.get("function", {}).get("name", "")
                if not (1 <= len(name) <= 64 and all(c.isascii() and (c.isalnum() or c in "_-") for c in name)):
                    problem(file.name, f"name {name!r} does not match ^[a-zA-Z0-9_-]{{1,64}}$")
    for line in problems:
        print(line)
    print(
        f"{len(files)} files checked with openai {openai.__version__}, anthropic {anthropic.__version__}, "
        f"google-genai {__import__('google.genai', fromlist=['version']).__version__}: {len(problems)} problems"
    )
    return 1 if problems or not files else 0


if __name__ == "__main__":
    sys.exit(main())
