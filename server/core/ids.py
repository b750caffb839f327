"""Identifiers and secrets: player and room ids, resume tokens, invite codes."""

from __future__ import annotations

import hashlib
import secrets

_CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford base32: no I, L, O, U


def new_id(prefix: str) -> str:
    return f"{prefix}_{secrets.token_hex(8)}"


def new_token() -> str:
    """A resume token: 192 random bits."""
    return secrets.token_urlsafe(24)


def hash_token(token: str) -> bytes:
    """Tokens are stored only as their SHA-256 (they are random, so no salt is needed)."""
    return hashlib.sha256(token.encode()).digest()


def new_invite_code() -> str:
    """Ten base32 characters: 50 random bits."""
    return "".join(secrets.choice(_CODE_ALPHABET) for _ in range(10))


def normalize_code(code: str) -> str:
    return code.strip().upper().replace("-", "").replace(" ", "")
