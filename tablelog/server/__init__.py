"""The table server: seats, roles, hidden information and live events over HTTP (SERVER.md)."""
