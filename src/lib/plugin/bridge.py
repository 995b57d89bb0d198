# assay's bridge to Python verifiers (verification.md, "Verifier Protocol"), embedded in assay
# and run as `PYTHON -B -c <this text>` (src/lib/plugin/python.c). It speaks JSON Lines on its
# standard input and output:
#   assay -> bridge, first line: {"file": PATH, "class": NAME, "source": TEXT, "config": {...}}
#   bridge -> assay:             {"ready": true, "python": VERSION, "executable": PATH}
#                                 or {"error": TEXT} (the verifier cannot be built)
#   assay -> bridge, per case:   {"group_name", "case_name", "actual": {...}, "expected": {...}}
#   bridge -> assay:             {"results": {NAME: {"diff", "is_correct", "weight"}}}
#                                 or {"error": TEXT} (that case is an error; the bridge goes on)
# The answers go out on a private descriptor; the verifier's own prints, and anything a program
# it starts writes, go to standard error, so they cannot garble or forge an answer.
import json
import math
import os
import sys
import traceback
import types


def _json_value(v):
    json.dumps(v, allow_nan=False)
    return v


def _make_verification_result():
    """VerificationResult as the contract writes it: pydantic when this Python has it."""
    try:
        import pydantic
    except Exception:
        pydantic = None
    version = getattr(pydantic, "VERSION", "0") if pydantic else "0"
    if pydantic and str(version).startswith("2"):
        from pydantic import BaseModel, ConfigDict, Field

        try:
            from pydantic import JsonValue
        except ImportError:  # pydantic < 2.5
            from typing import Any as JsonValue

        class VerificationResult(BaseModel):
            model_config = ConfigDict(extra="forbid")
            diff: JsonValue
            is_correct: bool
            weight: float = Field(default=1.0, gt=0.0)

            @classmethod
            def create(cls, diff, is_correct, weight=1.0):
                return cls(diff=_diff_value(diff), is_correct=is_correct, weight=weight)

            def _assay_dump(self):
                return self.model_dump(mode="json")

        return VerificationResult, "pydantic " + str(version)
    if pydantic:
        from typing import Any

        from pydantic import BaseModel, Field

        class VerificationResult(BaseModel):
            class Config:
                extra = "forbid"

            diff: Any
            is_correct: bool
            weight: float = Field(default=1.0, gt=0.0)

            @classmethod
            def create(cls, diff, is_correct, weight=1.0):
                return cls(diff=_diff_value(diff), is_correct=is_correct, weight=weight)

            def _assay_dump(self):
                return json.loads(self.json())

        return VerificationResult, "pydantic " + str(version)

    class VerificationResult:
        """Without pydantic: the same fields and checks (extra keys refused, weight > 0)."""

        __slots__ = ("diff", "is_correct", "weight")

        def __init__(self, diff=None, is_correct=None, weight=1.0, **extra):
            if extra:
                raise ValueError("extra fields not permitted: %s" % ", ".join(sorted(extra)))
            if isinstance(is_correct, bool):
                pass
            elif isinstance(is_correct, int) and is_correct in (0, 1):
                is_correct = bool(is_correct)
            else:
                raise ValueError("is_correct: value could not be parsed to a boolean")
            if isinstance(weight, bool) or not isinstance(weight, (int, float)):
                raise ValueError("weight: value is not a valid float")
            weight = float(weight)
            if not weight > 0.0:
                raise ValueError("weight: ensure this value is greater than 0")
            self.diff = diff
            self.is_correct = is_correct
            self.weight = weight

        @classmethod
        def create(cls, diff, is_correct, weight=1.0):
            return cls(diff=_diff_value(diff), is_correct=is_correct, weight=weight)

        def _assay_dump(self):
            return {"diff": self.diff, "is_correct": self.is_correct, "weight": self.weight}

        def __repr__(self):
            return "VerificationResult(diff=%r, is_correct=%r, weight=%r)" % (
                self.diff, self.is_correct, self.weight)

    return VerificationResult, "no pydantic: assay's own checks"


def _diff_value(diff):
    """A DeepDiff becomes its JSON (json.loads(diff.to_json())), as the contract's create."""
    deepdiff = sys.modules.get("deepdiff")
    if deepdiff is not None and isinstance(diff, deepdiff.DeepDiff):
        return json.loads(diff.to_json())
    return diff


VerificationResult, _MODEL = _make_verification_result()


def _install_models():
    """`from slop_code.evaluation.verifiers.models import VerificationResult` works."""
    names = ["slop_code", "slop_code.evaluation", "slop_code.evaluation.verifiers",
             "slop_code.evaluation.verifiers.models"]
    parent = None
    for name in names:
        mod = sys.modules.get(name)
        if mod is None:
            mod = types.ModuleType(name)
            mod.__path__ = []
            sys.modules[name] = mod
        if parent is not None:
            setattr(parent, name.rsplit(".", 1)[1], mod)
        parent = mod
    parent.VerificationResult = VerificationResult
    parent.VerifierReturnType = dict


class Config(dict):
    """The checkpoint's configuration: a mapping (.get(key, default)) read by attribute too."""

    def __getattr__(self, name):
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


class CaseResult:
    """actual / expected: the attributes of a CaseResult, read by attribute. A name the case
    does not have raises AttributeError, so getattr(expected, "fields", {}) gives the default."""

    def __init__(self, values):
        self.__dict__.update(values)

    def __repr__(self):
        return "CaseResult(%s)" % ", ".join("%s=%r" % kv for kv in self.__dict__.items())


def _answer(out, obj):
    out.write(json.dumps(obj, allow_nan=False) + "\n")
    out.flush()


def _results_of(raw):
    if not isinstance(raw, dict):
        raise ValueError("the verifier returned %s, not a dict of VerificationResult"
                         % type(raw).__name__)
    results = {}
    for key, value in raw.items():
        if not isinstance(key, str):
            raise ValueError("the verifier returned a key %r that is not a string" % (key,))
        if isinstance(value, dict):
            value = VerificationResult(**value)
        if not isinstance(value, VerificationResult):
            raise ValueError("results[%r] is %s, not a VerificationResult"
                             % (key, type(value).__name__))
        dumped = value._assay_dump()
        # revalidated: a model changed after it was built (r.weight = 0) is still checked
        dumped = VerificationResult(**dumped)._assay_dump()
        try:
            _json_value(dumped["diff"])
        except (TypeError, ValueError) as e:
            raise ValueError("results[%r].diff cannot be written as JSON: %s" % (key, e))
        if not (isinstance(dumped["weight"], (int, float)) and math.isfinite(dumped["weight"])):
            raise ValueError("results[%r].weight must be a finite number > 0" % (key,))
        results[key] = dumped
    return results


def _short_traceback():
    """Python's reason first (the report may cut a long message), then the traceback."""
    kind, exc = sys.exc_info()[:2]
    head = "".join(traceback.format_exception_only(kind, exc)).strip()
    text = traceback.format_exc()
    return head + "\n" + (text if len(text) < 4000 else "..." + text[-4000:])


def _private_channels():
    """The requests and answers move to descriptors of their own (not inherited by anything
    the verifier starts); descriptor 1 becomes standard error and descriptor 0 /dev/null. So
    neither the verifier's prints, nor a program it runs, nor anything the case's output makes
    it print can be read as an answer, or read a request meant for the bridge."""
    inp = os.fdopen(os.dup(0), "r", encoding="utf-8", newline="\n")
    out = os.fdopen(os.dup(1), "w", encoding="utf-8", newline="\n")
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    try:
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.close(null)
        sys.stdin = open(0, "r", closefd=False)
    except OSError:
        os.close(0)
        sys.stdin = None
    return inp, out


def main():
    inp, out = _private_channels()
    _install_models()
    hello = json.loads(inp.readline())
    where = hello["file"]
    # `python -c` puts "" (the working folder) first in sys.path: the process's own folder
    # is no place to import from (a module planted there would shadow deepdiff or json).
    sys.path[:] = [p for p in sys.path if p not in ("", ".", os.getcwd())]
    sys.path.insert(0, where.rsplit("/", 1)[0] if "/" in where else ".")
    module = types.ModuleType("verifier")
    module.__file__ = where
    # The contract's examples use VerificationResult without importing it (only the Basic
    # example shows the import): it is in scope, as it is in the guide they come from.
    module.VerificationResult = VerificationResult
    sys.modules["verifier"] = module
    try:
        exec(compile(hello["source"], where, "exec"), module.__dict__)
        cls = getattr(module, hello["class"], None)
        if cls is None:
            raise LookupError("%s defines no class %r (the suite's verifier.class)"
                              % (where, hello["class"]))
        instance = cls(Config(hello.get("config") or {}))
    except BaseException:
        _answer(out, {"error": "the verifier could not be built: " + _short_traceback()})
        return 1
    _answer(out, {"ready": True, "python": sys.version.split()[0],
                  "executable": sys.executable, "model": _MODEL})
    for line in inp:
        if not line.strip():
            continue
        req = json.loads(line)
        try:
            raw = instance(req["group_name"], req["case_name"], CaseResult(req["actual"]),
                           CaseResult(req["expected"]))
            _answer(out, {"results": _results_of(raw)})
        except Exception:
            _answer(out, {"error": _short_traceback()})
    return 0


sys.exit(main())
