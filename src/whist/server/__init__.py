"""The online club: HTTP and WebSocket server around one actor per table."""
