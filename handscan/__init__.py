"""Photo -> hand -> score: ``mjscore scan`` (with review and correction) and ``mjscore batch``.

Modules, each with one job:

- ``pipeline``      the one pipeline every front end runs (CLI scan, batch, ``session --photo``,
                    web API): recognizer -> ``vision.layout`` -> engine hand -> engine score,
                    flags (``read_photo``, ``lay_out``, ``evaluate``, ``scan_photo``)
- ``hand``          layout -> the engine's own ``Hand`` (no notation text), typed hands through
                    the engine's parser, the engine's ``HandScore``
- ``alternatives``  the closest valid hands to an invalid reading
- ``stakes``        unsure flowers/seasons whose other likely kind would change a valid score
- ``context``       what the photo cannot show (seat, winds, winning tile, win type), validated
- ``review``        review commands as pure functions (``apply_command(state, text)``)
- ``render``        readable text; ``outputs``: annotated photo, YOLO labels, JSON files
- ``batch``         manifests, resumable incremental output, worker processes
- ``cli_scan``      the two commands (``register(app)``)
"""
