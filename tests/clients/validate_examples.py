#!/usr/bin/env python3
"""Validates every GraphQL operation shipped with Carnet's clients and examples against schema/carnet.graphql,
with graphql-core (an independent implementation of GraphQL validation).

Usage:
    python3 tests/clients/validate_examples.py [--schema schema/carnet.graphql] [--verbose] [FILE ...]

Without FILE arguments it checks, relative to the repository root:
  * examples/operations/*.graphql   each file is one document;
  * examples/*.py, tests/clients/scenario.py, tests/clients/ws_protocol.py
                                    every string that starts with `query`, `mutation`, `subscription` or
                                    `fragment` and has a selection set: module constants folded through `+`
                                    (QUERY = "query ..." + FRAGMENTS is checked whole; fragment-only constants
                                    only inside the documents using them), and other string literals; docstrings
                                    and constants named INVALID_* are skipped;
  * examples/*.sh                   every heredoc delimited by GRAPHQL (`<<'GRAPHQL'` ... `GRAPHQL`).
Each document must parse, pass graphql-core's `validate` (all specified rules, @oneOf included), name every
operation, and stay within Carnet's documented request limits (Sources/CarnetGraphQL/README.md): depth 16,
30 aliases, 20 root fields, 100,000 estimated nodes (contacts/members/changeHistory count their page size, or
their default 100/100/1000, groups and containers 10, multiplied through the lists above them).
Needs graphql-core >= 3.3 (for @oneOf). Prints one line per document and `N passed, N failed`; exit 1 on failure.
"""
from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterator

try:
    import graphql
    from graphql import (
        DocumentNode,
        FieldNode,
        FragmentDefinitionNode,
        FragmentSpreadNode,
        InlineFragmentNode,
        OperationDefinitionNode,
        SelectionSetNode,
    )
except ImportError as error:  # pragma: no cover - environment problem
    sys.exit(f"validate_examples.py needs graphql-core (pip install -r tests/clients/requirements.txt): {error}")

ROOT = Path(__file__).resolve().parents[2]
OPERATION_START = re.compile(r"^\s*(#[^\n]*\n\s*)*(query|mutation|subscription|fragment)\b[^{}]*\{")
HEREDOC = re.compile(r"<<-?\s*'?\"?GRAPHQL'?\"?[^\n]*\n(.*?)^\s*GRAPHQL\s*$", re.S | re.M)

MAX_DEPTH = 16
MAX_ALIASES = 30
MAX_ROOT_FIELDS = 20
MAX_NODES = 100_000
PAGED_DEFAULTS = {"contacts": 100, "members": 100, "changeHistory": 1000}
UNPAGED_LISTS = {"groups": 10, "containers": 10}


@dataclass
class Source:
    path: Path
    line: int
    text: str


def fold(node: ast.expr, names: dict[str, str]) -> str | None:
    """The value of a string expression made of literals, earlier module constants and `+`; None otherwise."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = fold(node.left, names), fold(node.right, names)
        return left + right if left is not None and right is not None else None
    return None


def has_operation(text: str) -> bool:
    return re.search(r"^\s*(query|mutation|subscription)\b", text, re.M) is not None


def python_operations(path: Path) -> Iterator[Source]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    skipped: set[int] = set()
    # Module constants, folded through `+` so that QUERY = """query ...""" + FRAGMENTS is checked whole;
    # a constant holding fragments only is checked as part of the documents that use it.
    names: dict[str, str] = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target = statement.target
        else:
            continue
        if not isinstance(target, ast.Name) or statement.value is None:
            continue
        text = fold(statement.value, names)
        if text is None:
            continue
        names[target.id] = text
        for inner in ast.walk(statement.value):
            skipped.add(id(inner))
        if not target.id.startswith("INVALID_") and OPERATION_START.match(text) and has_operation(text):
            yield Source(path, statement.lineno, text)
    for node in ast.walk(tree):
        # Docstrings and expression statements are not operations.
        if isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant):
            skipped.add(id(node.value))
        # Deliberately invalid documents are named INVALID_*.
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id.startswith("INVALID_") for t in targets):
                for inner in ast.walk(node):
                    skipped.add(id(inner))
        # Pieces of f-strings are not whole documents.
        if isinstance(node, ast.JoinedStr):
            for inner in ast.walk(node):
                skipped.add(id(inner))
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skipped
                and OPERATION_START.match(node.value)):
            yield Source(path, node.lineno, node.value)


def shell_operations(path: Path) -> Iterator[Source]:
    text = path.read_text(encoding="utf-8")
    for match in HEREDOC.finditer(text):
        yield Source(path, text.count("\n", 0, match.start(1)) + 1, match.group(1))


def default_files() -> list[Path]:
    files = sorted((ROOT / "examples" / "operations").glob("*.graphql"))
    files += sorted((ROOT / "examples").glob("*.py"))
    files += sorted((ROOT / "examples").glob("*.sh"))
    files += [ROOT / "tests" / "clients" / "scenario.py", ROOT / "tests" / "clients" / "ws_protocol.py"]
    return [f for f in files if f.exists()]


def sources(path: Path) -> Iterator[Source]:
    if path.suffix in (".graphql", ".gql"):
        yield Source(path, 1, path.read_text(encoding="utf-8"))
    elif path.suffix == ".py":
        yield from python_operations(path)
    elif path.suffix == ".sh":
        yield from shell_operations(path)
    else:
        raise SystemExit(f"don't know how to read operations from {path}")


# -- Carnet's request limits -----------------------------------------------------------------------------------


class Limits:
    def __init__(self, document: DocumentNode):
        self.fragments = {d.name.value: d for d in document.definitions if isinstance(d, FragmentDefinitionNode)}

    def fields(self, selection_set: SelectionSetNode | None, seen: frozenset[str] = frozenset()) -> Iterator[FieldNode]:
        """The fields of a selection set with fragments expanded (one level)."""
        if selection_set is None:
            return
        for selection in selection_set.selections:
            if isinstance(selection, FieldNode):
                yield selection
            elif isinstance(selection, InlineFragmentNode):
                yield from self.fields(selection.selection_set, seen)
            elif isinstance(selection, FragmentSpreadNode):
                name = selection.name.value
                if name in self.fragments and name not in seen:
                    yield from self.fields(self.fragments[name].selection_set, seen | {name})

    def depth(self, selection_set: SelectionSetNode | None) -> int:
        return max((1 + self.depth(f.selection_set) for f in self.fields(selection_set)), default=0)

    def aliases(self, selection_set: SelectionSetNode | None) -> int:
        return sum((1 if f.alias else 0) + self.aliases(f.selection_set) for f in self.fields(selection_set))

    @staticmethod
    def argument(field: FieldNode, name: str, variables: dict[str, Any]) -> int | None:
        for argument in field.arguments or []:
            if argument.name.value == name:
                value = argument.value
                if isinstance(value, graphql.IntValueNode):
                    return int(value.value)
                if isinstance(value, graphql.VariableNode):
                    return variables.get(value.name.value)
        return None

    def nodes(self, selection_set: SelectionSetNode | None, multiplier: int, variables: dict[str, Any]) -> int:
        total = 0
        for field in self.fields(selection_set):
            inner = multiplier
            name = field.name.value
            size = None
            if name in PAGED_DEFAULTS:
                size = (self.argument(field, "first", variables) or self.argument(field, "last", variables)
                        or PAGED_DEFAULTS[name])
            elif name in UNPAGED_LISTS:
                size = UNPAGED_LISTS[name]
            if size is not None:
                inner = multiplier * size
                total += inner
            total += self.nodes(field.selection_set, inner, variables)
        return total


def variable_defaults(operation: OperationDefinitionNode) -> dict[str, Any]:
    defaults: dict[str, Any] = {}
    for definition in operation.variable_definitions or []:
        if isinstance(definition.default_value, graphql.IntValueNode):
            defaults[definition.variable.name.value] = int(definition.default_value.value)
    return defaults


def check(schema: graphql.GraphQLSchema, source: Source) -> tuple[list[str], list[str]]:
    """Returns (problems, descriptions of the operations)."""
    try:
        document = graphql.parse(graphql.Source(source.text, str(source.path)))
    except graphql.GraphQLError as error:
        return [f"parse error: {error.message} at {error.locations}"], []
    problems = [f"{e.message} at {e.locations}" for e in graphql.validate(schema, document)]
    operations = [d for d in document.definitions if isinstance(d, OperationDefinitionNode)]
    if not operations:
        problems.append("no operation in the document")
    limits = Limits(document)
    described = []
    for operation in operations:
        name = operation.name.value if operation.name else None
        if name is None:
            problems.append(f"an anonymous {operation.operation.value}: name every operation")
        depth = limits.depth(operation.selection_set)
        aliases = limits.aliases(operation.selection_set)
        roots = sum(1 for _ in limits.fields(operation.selection_set))
        nodes = limits.nodes(operation.selection_set, 1, variable_defaults(operation))
        if depth > MAX_DEPTH:
            problems.append(f"{name}: depth {depth} > {MAX_DEPTH}")
        if aliases > MAX_ALIASES:
            problems.append(f"{name}: {aliases} aliases > {MAX_ALIASES}")
        if roots > MAX_ROOT_FIELDS:
            problems.append(f"{name}: {roots} root fields > {MAX_ROOT_FIELDS}")
        if nodes > MAX_NODES:
            problems.append(f"{name}: about {nodes} nodes > {MAX_NODES}")
        described.append(f"{operation.operation.value} {name} (depth {depth}, nodes {nodes})")
    return problems, described


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Validate Carnet's example and client operations with graphql-core.")
    parser.add_argument("files", nargs="*", type=Path, help="files to check (default: the examples and clients)")
    parser.add_argument("--schema", type=Path, default=ROOT / "schema" / "carnet.graphql", help="the SDL")
    parser.add_argument("--verbose", action="store_true", help="print every document, not only failures")
    args = parser.parse_args(argv)

    version = tuple(int(p) for p in re.findall(r"\d+", graphql.__version__)[:2])
    if version < (3, 3):
        print(f"graphql-core {graphql.__version__} does not know @oneOf; install graphql-core>=3.3", file=sys.stderr)
        return 2
    schema = graphql.build_schema(args.schema.read_text(encoding="utf-8"))
    schema_errors = graphql.validate_schema(schema)
    if schema_errors:
        for error in schema_errors:
            print(f"FAIL {args.schema}: {error.message}")
        return 1

    files = args.files or default_files()
    passed = failed = 0
    for path in files:
        found = list(sources(path))
        if not found and path.suffix != ".py":
            print(f"FAIL {path}: no GraphQL document found")
            failed += 1
        for source in found:
            problems, described = check(schema, source)
            where = f"{source.path.relative_to(ROOT) if source.path.is_relative_to(ROOT) else source.path}:{source.line}"
            if problems:
                failed += 1
                print(f"FAIL {where}: " + "; ".join(problems))
            else:
                passed += 1
                if args.verbose:
                    print(f"ok   {where}: " + ", ".join(described))
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
