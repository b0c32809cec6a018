#!/usr/bin/env python3
"""Check that the hand-read figures of the invoice corpora are consistent.

Reads the `expected.toml` of each corpus (the real invoices in
../shared/data/invoices and the extended corpus in tests/data/invoices) and
checks, with Python `decimal` only (no billaudit code):

  1. keys and types: every table names an existing .txt; money is a string
     in plain decimal notation; currency is a 3-letter code; items_basis is
     "gross" or "net"; pages >= 1; in the extended corpus `synthetic` and
     `source` are present;
  2. pages: a text with form feeds has one per page (`pdftotext -layout`);
  3. totals:  net + tax = stated_total                (both printed)
              items_total + adjustments = net           (items_basis "net")
              items_total + adjustments = stated_total  (items_basis "gross")
              stated_total + applied = amount_due       (`applied` given)
              0 <= amount_due <= stated_total           (no `applied`)
     (`adjustments` and `applied` count as 0 when absent);
  4. printed: stated_total, net, tax and amount_due are each printed in the
     .txt in some notation ("1.323,15", "1,323.15", "1323.15", "30,107" ...);
  5. notes: every piece of arithmetic written in `notes` as
     "a + b - c x d / e = r" (optionally "-> s") holds: r equals the
     left side exactly or rounded to r's decimals (half-up, half-even or
     truncated, the note says which), and s is r rounded half-up to s's
     decimals. "x", "×" and "*" multiply, "14.5%" is 0.145;
  6. notes name the figures: items_total, stated_total, net and tax appear
     in `notes` as plain numbers (so the arithmetic there is about them).

Usage: python3 scripts/check_invoice_corpus.py [CORPUS_DIR ...]
       python3 scripts/check_invoice_corpus.py --self-test
--self-test copies tests/data/invoices to a temporary folder, plants one
typo at a time (a tax one cent off, a wrong sum in the notes, a wrong
page count, ...) and fails unless the check reports each of them.
Without arguments: tests/data/invoices and $BILLAUDIT_REAL_INVOICES (or
../shared/data/invoices from the project root, skipped with a warning when
absent). Prints one line per invoice; exits 1 on any error.
"""
import os
import re
import sys
import tomllib
from decimal import ROUND_DOWN, ROUND_HALF_EVEN, ROUND_HALF_UP, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MONEY_KEYS = ("items_total", "stated_total", "net", "tax", "amount_due", "adjustments", "applied")
PRINTED_KEYS = ("stated_total", "net", "tax", "amount_due")
NAMED_IN_NOTES = ("items_total", "stated_total", "net", "tax")
REQUIRED = ("vendor", "country", "language", "pages", "currency", "items_basis",
            "items_total", "stated_total", "notes")
PLAIN = re.compile(r"^-?\d+(\.\d+)?$")

NUM = r"-?\d+(?:\.\d+)?%?"
OP = r"\s*(?:[-+*/x×])\s*"
# a chain "n op n op n ... = r [-> s]"; the first number must not continue an
# earlier number ("0,75" must not yield "75")
ARITH = re.compile(
    r"(?<![\d.,])(" + NUM + r"(?:" + OP + NUM + r")+)\s*=\s*(-?\d+(?:\.\d+)?)(?![\d,]|\.\d)"
    r"(?:\s*->\s*(-?\d+(?:\.\d+)?)(?![\d,]|\.\d))?"
)


def dec(s):
    return Decimal(s)


def evaluate(expr):
    """Evaluate an arithmetic chain exactly, with the usual precedence."""
    tokens = re.findall(r"\d+(?:\.\d+)?%?|[-+*/x×]", expr)
    # unary minus on the first number
    if tokens and tokens[0] == "-":
        tokens = tokens[1:]
        tokens[0] = "-" + tokens[0]
    nums, ops = [], []
    for t in tokens:
        if t in "+-*/x×":
            ops.append({"x": "*", "×": "*"}.get(t, t))
        else:
            v = dec(t.rstrip("%"))
            if t.endswith("%"):
                v = v / 100
            nums.append(v)
    if len(nums) != len(ops) + 1:
        raise ValueError(f"cannot read {expr!r}")
    # products and quotients first
    terms, signs = [nums[0]], []
    for op, v in zip(ops, nums[1:]):
        if op == "*":
            terms[-1] = terms[-1] * v
        elif op == "/":
            terms[-1] = terms[-1] / v
        else:
            signs.append(op)
            terms.append(v)
    total = terms[0]
    for op, v in zip(signs, terms[1:]):
        total = total + v if op == "+" else total - v
    return total


def places(s):
    return len(s.split(".")[1]) if "." in s else 0


def rounds_to(value, text):
    """True when `value` is `text` exactly or rounded to its decimals."""
    target = dec(text)
    if value == target:
        return True
    q = Decimal(1).scaleb(-places(text))
    return any(value.quantize(q, rounding=r) == target
               for r in (ROUND_HALF_UP, ROUND_HALF_EVEN, ROUND_DOWN))


def check_notes(notes):
    errors, count = [], 0
    for m in ARITH.finditer(notes):
        expr, result, arrow = m.group(1), m.group(2), m.group(3)
        count += 1
        try:
            value = evaluate(expr)
        except (ValueError, ArithmeticError) as e:
            errors.append(f"notes: {e}")
            continue
        if not rounds_to(value, result):
            errors.append(f"notes: {expr} = {result} is wrong (it is {value})")
        if arrow is not None:
            q = Decimal(1).scaleb(-places(arrow))
            if dec(result).quantize(q, rounding=ROUND_HALF_UP) != dec(arrow):
                errors.append(f"notes: {result} -> {arrow} is not a rounding")
    return errors, count


def printed_forms(value):
    """The ways an invoice may print `value` (without its sign)."""
    v = abs(value)
    whole, _, frac = f"{v:f}".partition(".")
    groups = []
    w = whole
    while len(w) > 3:
        groups.insert(0, w[-3:])
        w = w[:-3]
    groups.insert(0, w)
    forms = set()
    for thousands in ("", ",", ".", " ", "\u00a0", "'"):
        head = thousands.join(groups) if thousands else whole
        if frac:
            for point in (".", ","):
                if point != thousands:
                    forms.add(head + point + frac)
        else:
            forms.add(head)
    return forms


def is_printed(value, text):
    for form in printed_forms(value):
        pat = r"(?<![\d.,])" + re.escape(form) + r"(?![\d]|[.,]\d)"
        if re.search(pat, text):
            return True
    return False


def check_invoice(corpus, name, t, extended):
    errors = []
    for k in REQUIRED:
        if k not in t:
            errors.append(f"missing key {k}")
    if extended:
        for k in ("synthetic", "source"):
            if k not in t:
                errors.append(f"missing key {k}")
        if "synthetic" in t and not isinstance(t["synthetic"], bool):
            errors.append("synthetic is not a boolean")
    if errors:
        return errors
    m = {}
    for k in MONEY_KEYS:
        if k in t:
            if not isinstance(t[k], str) or not PLAIN.match(t[k]):
                errors.append(f"{k} = {t[k]!r} is not a plain decimal string")
            else:
                m[k] = dec(t[k])
    if not re.fullmatch(r"[A-Z]{3}", str(t["currency"])):
        errors.append(f"currency {t['currency']!r} is not an ISO 4217 code")
    if t["items_basis"] not in ("gross", "net"):
        errors.append(f"items_basis {t['items_basis']!r} is not gross or net")
    if not isinstance(t["pages"], int) or t["pages"] < 1:
        errors.append(f"pages {t['pages']!r} is not a page count")
    txt = corpus / name
    if not txt.is_file():
        return errors + [f"no file {txt}"]
    if "pdf" in t and not (corpus / t["pdf"]).is_file():
        errors.append(f"no file {corpus / t['pdf']}")
    text = txt.read_text(encoding="utf-8")
    feeds = text.count("\f")
    if feeds and feeds != t["pages"]:
        errors.append(f"pages = {t['pages']} but the text has {feeds} form feeds")
    if errors:
        return errors

    zero = Decimal(0)
    if "net" in m and "tax" in m and m["net"] + m["tax"] != m["stated_total"]:
        errors.append(f"net + tax = {m['net'] + m['tax']} != stated_total {m['stated_total']}")
    items = m["items_total"] + m.get("adjustments", zero)
    if t["items_basis"] == "net":
        if "net" not in m:
            errors.append("items_basis is net but no net is given")
        elif items != m["net"]:
            errors.append(f"items_total + adjustments = {items} != net {m['net']}")
    elif items != m["stated_total"]:
        errors.append(f"items_total + adjustments = {items} != stated_total {m['stated_total']}")
    if "applied" in m:
        if "amount_due" not in m:
            errors.append("applied is given but no amount_due")
        elif m["stated_total"] + m["applied"] != m["amount_due"]:
            errors.append(f"stated_total + applied = {m['stated_total'] + m['applied']}"
                          f" != amount_due {m['amount_due']}")
    elif "amount_due" in m and not zero <= m["amount_due"] <= m["stated_total"]:
        errors.append(f"amount_due {m['amount_due']} is not within 0..stated_total"
                      " (give `applied` for credits or payments)")

    for k in PRINTED_KEYS:
        if k in m and not is_printed(m[k], text):
            errors.append(f"{k} {m[k]} is not printed in {name}")

    notes = t["notes"]
    note_errors, count = check_notes(notes)
    errors += note_errors
    if count == 0:
        errors.append("notes hold no arithmetic (a + b = c)")
    for k in NAMED_IN_NOTES:
        if k in m and not re.search(r"(?<![\d.])" + re.escape(t[k]) + r"(?![\d]|\.\d)", notes):
            errors.append(f"{k} {t[k]} does not appear in notes")
    return errors


def default_corpora():
    dirs = [ROOT / "tests/data/invoices"]
    shared = os.environ.get("BILLAUDIT_REAL_INVOICES")
    shared = Path(shared) if shared else ROOT / "../shared/data/invoices"
    if (shared / "expected.toml").is_file():
        dirs.append(shared)
    else:
        print(f"warning: no shared corpus at {shared} (set BILLAUDIT_REAL_INVOICES)",
              file=sys.stderr)
    return dirs


# (what the typo is, the text in expected.toml, its replacement)
MUTATIONS = [
    ("tax one cent off", 'tax = "211.26"', 'tax = "211.27"'),
    ("items_total typo", 'items_total = "27370"', 'items_total = "27730"'),
    ("wrong applied credit", 'applied = "-250.00"', 'applied = "-205.00"'),
    ("amount_due not printed", 'amount_due = "2161.85"\n', 'amount_due = "2161.58"\n'),
    ("wrong sum in notes", "13200 + 4950 + 550 + 3300 + 2750 = 24750",
     "13200 + 4950 + 550 + 3300 + 2750 = 24570"),
    ("wrong rounding in notes", "1111.89 x 0.19 = 211.2591 -> 211.26",
     "1111.89 x 0.19 = 211.2591 -> 211.25"),
    ("wrong product in notes", "41.25 x 23.92 = 986.70", "41.25 x 23.92 = 986.07"),
    ("wrong page count", 'pages = 3', 'pages = 2'),
    ("net basis total mismatch", 'net = "170.68"', 'net = "170.86"'),
    ("missing source", 'source = "invoice-x/', 'origin = "invoice-x/'),
]


def self_test():
    global ROOT
    import shutil
    import tempfile
    import contextlib
    import io
    src = ROOT / "tests/data/invoices"
    clean = io.StringIO()
    with contextlib.redirect_stdout(clean):
        if main([str(src)]) != 0:
            print(clean.getvalue())
            print("self-test: the corpus itself fails")
            return 1
    bad = 0
    for what, old, new in MUTATIONS:
        with tempfile.TemporaryDirectory() as tmp:
            # the copy stands in for tests/data/invoices (`extended` checks)
            saved, ROOT = ROOT, Path(tmp)
            dst = Path(tmp) / "tests/data/invoices"
            shutil.copytree(src, dst)
            exp = dst / "expected.toml"
            text = exp.read_text(encoding="utf-8")
            if text.count(old) != 1:
                print(f"self-test: {what}: {old!r} is not in expected.toml once")
                bad += 1
                ROOT = saved
                continue
            exp.write_text(text.replace(old, new), encoding="utf-8")
            out = io.StringIO()
            with contextlib.redirect_stdout(out):
                rc = main([str(dst)])
            ROOT = saved
            fails = [line for line in out.getvalue().splitlines() if line.startswith("FAIL")]
            if rc == 1 and fails:
                print(f"caught  {what}: {fails[0]}")
            else:
                print(f"MISSED  {what}")
                bad += 1
    print(f"self-test: {len(MUTATIONS)} planted typos, {bad} missed")
    return 1 if bad else 0


def main(argv):
    if argv == ["--self-test"]:
        return self_test()
    dirs = [Path(a) for a in argv] or default_corpora()
    failed = 0
    total = 0
    for corpus in dirs:
        corpus = corpus.resolve()
        with open(corpus / "expected.toml", "rb") as f:
            tables = tomllib.load(f)
        extended = corpus == (ROOT / "tests/data/invoices").resolve()
        listed = set(tables)
        for txt in sorted(corpus.glob("*.txt")):
            if txt.name not in listed:
                print(f"FAIL {corpus.name}/{txt.name}: no table in expected.toml")
                failed += 1
        for name, t in tables.items():
            total += 1
            errors = check_invoice(corpus, name, t, extended)
            if errors:
                failed += 1
                for e in errors:
                    print(f"FAIL {corpus.name}/{name}: {e}")
            else:
                print(f"ok   {corpus.name}/{name}: {t['currency']} items {t['items_total']}"
                      f" ({t['items_basis']}), total {t['stated_total']}")
    print(f"{total} invoices, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
