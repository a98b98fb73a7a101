#!/usr/bin/env python3
"""The size limits of docs/architecture.md ("Limits"), counted fast enough for every CI run.

A function's body may span at most 80 lines in engine/ and app/, 60 in ui/; a .cpp file at most
600 lines. A body's lines are counted as clang-tidy's readability-function-size counts them (the
line of its closing brace minus the line of its opening one), so this check and
`clang-tidy -checks=readability-function-size` (docs/architecture.md gives the command) agree; the
counting here reads the source text instead of parsing it, which clang-tidy does with LibTorch's
headers in every file (minutes a file on two cores).

Usage: check_limits.py SOURCE_DIR [--list]   (exit 1 and one line per offender when a limit is passed;
--list prints every function's length instead, for comparing with clang-tidy.)
"""
import pathlib
import re
import sys

FUNCTION_LINES = {"engine": 80, "app": 80, "ui": 60}
FILE_LINES = 600
SOURCES = (".cpp", ".h")

# Comments, string and character literals (raw strings too), replaced by spaces of the same lines.
LITERAL = re.compile(
    r'//[^\n]*|/\*.*?\*/|R"([^(\s]*)\(.*?\)\1"|"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])+\'',
    re.S,
)


def blank(match):
    return re.sub(r"[^\n]", " ", match.group(0))


def code_of(text):
    text = LITERAL.sub(blank, text)
    # Preprocessor lines (and their continuations) hold no braces that open scopes.
    return re.sub(r"^[ \t]*#(?:[^\n]*\\\n)*[^\n]*", blank, text, flags=re.M)


def without_groups(text, opening, closing):
    """`text` with every balanced opening…closing group removed (kept: the outermost characters)."""
    out, depth = [], 0
    for ch in text:
        if ch == opening:
            depth += 1
            if depth == 1:
                out.append(ch)
        elif ch == closing and depth:
            depth -= 1
            if depth == 0:
                out.append(ch)
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def kind_of(statement):
    """What a '{' opens, from the text before it: 'scope' (namespace, class, enum, extern "C"),
    'function' (a function's body) or 'other' (an initializer)."""
    s = without_groups(statement, "{", "}")
    s = re.sub(r"\btemplate\s*<", "template<", s)
    s = re.sub(r"\boperator\s*(\(\)|[^\s(]+)", "operator_", s)
    s = re.sub(r"\b(public|private|protected|signals|slots|Q_SLOTS|Q_SIGNALS)\s*(slots\s*)?:(?!:)", " ", s)
    stripped = s.strip()
    if re.match(r"^(inline\s+)?namespace\b", stripped) or re.match(r"^extern\s*$", stripped):
        return "scope"
    head = re.sub(r"^template<.*?>\s*", "", stripped, flags=re.S)
    if re.match(r"^(typedef\s+)?(class|struct|union|enum)\b[^()=]*$", head, re.S):
        return "scope"
    flat = without_groups(without_groups(head, "(", ")"), "[", "]")
    if "=" in flat.replace("==", "") or "(" not in flat:
        return "other"
    # A body follows the parameter list, its qualifiers and trailing return type, or a constructor's
    # initializers; a brace after a name initializes a member (`S() : v_{1}`).
    tail = re.sub(r"\s*->[^;{}()]*$", "", flat.rstrip())
    tail = re.sub(r"(\s*\b(const|volatile|override|final|mutable|noexcept|try)\b(\s*\(\))?|\s*&&?)*\s*$", "", tail)
    return "function" if tail.endswith((")", "}")) else "other"


def functions(code):
    """(first line, body lines) of each function body at namespace or class scope."""
    found, stack, statement, line = [], [], [], 1
    for ch in code:
        if ch == "\n":
            line += 1
        nested = any(k != "scope" for k, _ in stack)  # inside a body or an initializer
        if ch == "{":
            if nested:
                stack.append(("nested", line))
            else:
                text = "".join(statement)
                # A brace inside a parameter list (a default argument `= {}`) opens no body.
                kind = "other" if text.count("(") > text.count(")") else kind_of(text)
                stack.append((kind, line))
                if kind != "other":
                    statement = []
                else:
                    statement.append(ch)
            continue
        if ch == "}" and stack:
            kind, opened = stack.pop()
            if kind == "function":
                found.append((opened, line - opened))
                statement = []
            elif kind == "scope":
                statement = []
            elif kind == "other":
                statement.append(ch)
            continue
        if nested:
            continue
        if ch == ";":
            statement = []
        else:
            statement.append(ch)
    return found


# The counting checked on the shapes C++ gives a body, with clang-tidy's count for each (the line of
# the closing brace minus the line of the opening one): run before every check, so a counter that
# broke (and found nothing too long) fails instead of passing.
SELF_TEST = r"""
namespace a {
int plain(int x)
{
    return x;
}
struct S {
    S() : v_{1}, w_(2)
    {
        v_ = 3;
    }
    int inlined() const { return v_; }
    S& operator=(const S& o)
    {
        v_ = o.v_;

        return *this;
    }
    int v_, w_;
};
std::vector<int> defaults(std::vector<int> names = {}, int k = 0)
{
    const char* text = "{ not a brace }"; // nor { this
    /* nor } this */
    const auto lambda = [&](int i) {
        return i + k;
    };
    return names;
}
const std::vector<int> table = {
    1, 2, 3,
};
template <typename T = int>
T made()
{
    return T{};
}
extern "C" {
void c_linkage()
{
}
}
}
"""
SELF_TEST_LENGTHS = [2, 2, 0, 4, 7, 2, 1]


def self_test():
    found = [n for _, n in functions(code_of(SELF_TEST))]
    if found != SELF_TEST_LENGTHS:
        print(f"check_limits.py counts {found} in its own examples, not {SELF_TEST_LENGTHS}: the counter is broken")
        return False
    return True


def main(argv):
    if not self_test():
        return 1
    root = pathlib.Path(argv[1])
    listing = "--list" in argv
    problems = []
    for part, limit in FUNCTION_LINES.items():
        for path in sorted((root / part).rglob("*")):
            if path.suffix not in SOURCES or "build" in path.relative_to(root).parts:
                continue
            text = path.read_text(encoding="utf-8")
            where = path.relative_to(root)
            lines = text.count("\n")
            if path.suffix == ".cpp" and lines > FILE_LINES:
                problems.append(f"{where}: {lines} lines (at most {FILE_LINES} a file; split it into named parts)")
            for first, length in functions(code_of(text)):
                if listing:
                    print(f"{where}:{first}: {length}")
                elif length > limit:
                    problems.append(f"{where}:{first}: a function of {length} lines (at most {limit} in {part}/)")
    for p in problems:
        print(p)
    if problems and not listing:
        print(f"{len(problems)} over the limits of docs/architecture.md (Limits)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
