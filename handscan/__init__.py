"""Photo -> hand -> score: ``mjscore scan`` (with review and correction) and ``mjscore batch``.

Modules, each with one job:

- ``context``   what the photo cannot show (seat, winds, winning tile, win type), validated;
                hand notation -> engine request
- ``pipeline``  one photo: recognizer -> ``vision.layout`` -> hand -> engine -> flags and the
                closest valid alternatives (``scan_photo``, ``evaluate``)
- ``review``    review commands as pure functions (``apply_command(state, text)``)
- ``render``    readable text; ``outputs``: annotated photo, YOLO labels, JSON files
- ``batch``     manifests, resumable incremental output, worker processes
- ``cli_scan``  the two commands (``register(app)``)
"""
