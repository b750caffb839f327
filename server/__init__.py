"""The klaverjas server: lobby, tables and tournaments over websockets."""
