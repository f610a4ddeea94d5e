"""Whether the MTA in front of the judge authenticated a mail's From address: its
`Authentication-Results:` header (RFC 8601), as OpenDMARC, OpenDKIM or rspamd write it.

Only the header of the judge's own MTA is read, named by its authserv-id (`[judge] authserv_id`;
empty: none is trusted), and only the topmost one with that id: the MTA removes any such header a
sender wrote, and adds its own above the others. The From domain is authenticated when DMARC passed
for it, or DKIM passed with that very signing domain, or SPF passed for an envelope sender of that
very domain (strict alignment: the relaxed one needs the public suffix list, which the DMARC
filter has and applies).
"""
from __future__ import annotations

import re
from collections.abc import Sequence

COMMENT = re.compile(r"\([^()]*\)")  # one level; nested comments are unwrapped by repeating
RESULT = re.compile(r"([A-Za-z0-9_.-]+)\s*=\s*([A-Za-z0-9_.-]+)")
PROPERTY = re.compile(r"([A-Za-z0-9_-]+\.[A-Za-z0-9_.-]+)\s*=\s*(\"[^\"]*\"|[^\s;]+)")


def without_comments(text: str) -> str:
    for _ in range(8):  # comments nest: their innermost level goes first
        stripped = COMMENT.sub(" ", text)
        if stripped == text:
            break
        text = stripped
    return text


def results_of(headers: Sequence[str], authserv_id: str) -> list[tuple[str, str, dict[str, str]]]:
    """The results (method, result, properties) of the topmost header whose authserv-id is
    `authserv_id`; none when `authserv_id` is empty or no header has it."""
    if not authserv_id:
        return []
    for value in headers:
        parts = without_comments(" ".join(value.split())).split(";")
        if [word.lower() for word in parts[0].split()[:1]] != [authserv_id.lower()]:
            continue
        results = []
        for part in parts[1:]:
            found = RESULT.match(part.strip())
            if found:
                properties = {name.lower(): value.strip('"').lower()
                              for name, value in PROPERTY.findall(part[found.end():])}
                results.append((found.group(1).lower(), found.group(2).lower(), properties))
        return results
    return []


def aligned(domain: str, other: str) -> bool:
    """Strict alignment of two domains: the same."""
    domain, other = domain.strip(".").lower(), other.strip(".").lower()
    return bool(domain) and domain == other


def from_authenticated(headers: Sequence[str], authserv_id: str, from_address: str) -> bool:
    """Whether the judge's MTA (`authserv_id`) authenticated the domain of `from_address`, going by
    its `Authentication-Results:` headers `headers` (topmost first)."""
    domain = from_address.rpartition("@")[2].lower()
    if not domain:
        return False
    for method, result, properties in results_of(headers, authserv_id):
        if result != "pass":
            continue
        if method == "dmarc" and properties.get("header.from", "") == domain:
            return True
        if method == "dkim" and aligned(properties.get("header.d", "")
                                        or properties.get("header.i", "").rpartition("@")[2],
                                        domain):
            return True
        if method == "spf" and aligned(properties.get("smtp.mailfrom", "").rpartition("@")[2],
                                       domain):
            return True
    return False
