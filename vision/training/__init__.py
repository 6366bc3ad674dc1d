"""Training code for the tile recognizer (torch lives only here; the runtime uses ONNX)."""
