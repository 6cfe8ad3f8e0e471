"""Validates the request bodies the agent sent to the mock providers with the providers' own SDK types.

Usage: check_requests.py FOLDER, where FOLDER holds PROVIDER.N.json request bodies as tests/agent
writes them (PROVIDER: openai, openai-responses, anthropic or gemini). Each body is validated
through pydantic with the SDK's request type, streaming or not as the body's `stream` says:

  openai            openai.types.chat.completion_create_params.CompletionCreateParams{Streaming,NonStreaming}
  openai-responses  openai.types.responses.response_create_params.ResponseCreateParams{Streaming,NonStreaming}
  anthropic         anthropic.types.message_create_params.MessageCreateParams{Streaming,NonStreaming}
  gemini            the REST body of generateContent: `contents` as google.genai.types.Content, `tools` as
                    types.Tool, `systemInstruction` as types.Content, `generationConfig` as
                    types.GenerationConfig (google-genai's models forbid unknown keys at every level)

Pydantic ignores unknown keys in TypedDicts, so every key of an OpenAI or Anthropic body is also
looked up, at every level, in the TypedDict it belongs to (for a union, in the member that fits).
Exits non-zero, listing every problem, when anything is off.
"""

import collections.abc
import functools
import json
import sys
import types
import typing
from pathlib import Path

import anthropic
import openai
import pydantic
import typing_extensions
from anthropic.types import message_create_params
from google.genai import types as genai
from openai.types.chat import completion_create_params
from openai.types.responses import response_create_params

problems: list[str] = []

TYPES = {
    "openai": (
        completion_create_params.CompletionCreateParamsStreaming,
        completion_create_params.CompletionCreateParamsNonStreaming,
    ),
    "openai-responses": (
        response_create_params.ResponseCreateParamsStreaming,
        response_create_params.ResponseCreateParamsNonStreaming,
    ),
    "anthropic": (
        message_create_params.MessageCreateParamsStreaming,
        message_create_params.MessageCreateParamsNonStreaming,
    ),
}

# The fields of generateContent's REST body (GenerateContentRequest) and the google-genai type of each.
GEMINI_FIELDS = {
    "contents": list[genai.Content],
    "tools": list[genai.Tool],
    "systemInstruction": genai.Content,
    "generationConfig": genai.GenerationConfig,
    "toolConfig": genai.ToolConfig,
    "safetySettings": list[genai.SafetySetting],
    "cachedContent": str,
}

# The SDKs declare their TypedDicts with typing_extensions, whose markers differ from typing's on older Pythons.
WRAPPERS = {
    typing.Annotated,
    typing_extensions.Annotated,
    typing_extensions.Required,
    typing_extensions.NotRequired,
    typing_extensions.ReadOnly,
}


@functools.cache
def adapter(kind: object) -> pydantic.TypeAdapter:
    return pydantic.TypeAdapter(kind)


def fits(value: object, kind: object) -> bool:
    try:
        adapter(kind).validate_python(value, strict=True)
        return True
    except (pydantic.ValidationError, pydantic.PydanticSchemaGenerationError, TypeError):
        return False


def unwrap(kind: object) -> object:
    while typing_extensions.get_origin(kind) in WRAPPERS:
        kind = typing_extensions.get_args(kind)[0]
    return kind


def unknown_keys(value: object, kind: object, path: str) -> list[str]:
    """The keys of `value` that its TypedDict (at any depth) does not define."""
    kind = unwrap(kind)
    origin = typing_extensions.get_origin(kind)
    if origin in (typing.Union, types.UnionType):
        options = [unknown_keys(value, member, path) for member in typing_extensions.get_args(kind) if fits(value, member)]
        return min(options, key=len) if options else []
    if typing_extensions.is_typeddict(kind):
        if not isinstance(value, dict):
            return []
        hints = typing_extensions.get_type_hints(kind, include_extras=True)
        found = []
        for key, item in value.items():
            if key not in hints:
                found.append(f"{path}.{key}: not a field of {kind.__module__}.{kind.__qualname__}")
            else:
                found += unknown_keys(item, hints[key], f"{path}.{key}")
        return found
    arguments = typing_extensions.get_args(kind)
    if isinstance(value, list) and origin is not None and len(arguments) == 1 and origin not in (dict, collections.abc.Mapping):
        return [problem for index, item in enumerate(value) for problem in unknown_keys(item, arguments[0], f"{path}[{index}]")]
    return []


def check_typed(where: str, body: dict, provider: str) -> None:
    streaming, whole = TYPES[provider]
    kind = streaming if body.get("stream") is True else whole
    try:
        adapter(kind).validate_python(body, strict=True)
    except pydantic.ValidationError as error:
        problems.append(f"{where}: not a valid {kind.__module__}.{kind.__qualname__}: {error}")
        return
    problems.extend(f"{where} {problem}" for problem in unknown_keys(body, kind, "body"))


def check_gemini(where: str, body: dict) -> None:
    for key, value in body.items():
        if key not in GEMINI_FIELDS:
            problems.append(f"{where}: {key!r} is not a field of the generateContent request")
            continue
        try:
            adapter(GEMINI_FIELDS[key]).validate_json(json.dumps(value))
        except pydantic.ValidationError as error:
            problems.append(f"{where}: {key} is not a valid {GEMINI_FIELDS[key]}: {error}")
    if "contents" not in body:
        problems.append(f"{where}: no contents")


def main() -> int:
    folder = Path(sys.argv[1])
    files = sorted(folder.glob("*.json"))
    for file in files:
        provider = file.name.rsplit(".", 2)[0]
        body = json.loads(file.read_text())
        if provider == "gemini":
            check_gemini(file.name, body)
        else:
            check_typed(file.name, body, provider)
    for line in problems:
        print(line)
    print(
        f"{len(files)} requests checked with openai {openai.__version__}, anthropic {anthropic.__version__}, "
        f"google-genai {__import__('google.genai', fromlist=['version']).__version__}: {len(problems)} problems"
    )
    return 1 if problems or not files else 0


if __name__ == "__main__":
    sys.exit(main())
