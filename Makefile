# Two commands for a newcomer: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
# A test worker a core (pytest-xdist), each test file kept to one worker so its fixtures are built once.
PARALLEL ?= -n auto --dist loadfile

.PHONY: run test test-all lint venv bench clean train train-pieces screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip

venv: $(BIN)/python
	$(BIN)/pip install -q -e '.[vision,test,lint]'

## Start the companion off a Pi: mock pins, demo photos, page on http://localhost:8000/
run: venv
	$(BIN)/companion serve --demo

## Set up and run the tests, all but the slow photo-set ones (a few minutes; exit 5, "no tests ran", fails).
test: venv
	$(BIN)/python -m pytest -m "not slow" $(PARALLEL)

## Every test, the slow photo-set ones too (about 15 minutes on 2 cores; CI runs this).
test-all: venv
	$(BIN)/python -m pytest $(PARALLEL)

## The kiosk in Chromium at 800x480 and 1920x1080, every game's states the browser tests play: PNGs in build/screenshots/.
screenshots: venv
	COMPANION_SHOTS=$(CURDIR)/build/screenshots $(BIN)/python -m pytest -q tests/web/test_browser.py tests/web/test_kiosk_layout.py
	@ls build/screenshots

## ruff (lint and format) and mypy, as configured in pyproject.toml (CI runs this).
lint: venv
	$(BIN)/ruff check companion tests bench
	$(BIN)/ruff format --check companion tests bench
	$(BIN)/mypy

bench: venv
	$(BIN)/python bench/bones_best.py
	$(BIN)/python bench/advisor.py
	$(BIN)/python bench/tomb_turn.py
	$(BIN)/python bench/ghosts_deduce.py
	$(BIN)/python bench/dice_read.py
	$(BIN)/python bench/pieces_read.py
	$(BIN)/python bench/live.py
	$(BIN)/python bench/live_pages.py
	$(BIN)/python bench/pin_guesses.py
	$(BIN)/python bench/memory.py
	$(BIN)/python bench/soak.py --minutes 2

## Train the dice reader's networks: embedding and finder side by side, one core each (45 minutes), then the
## refiner (40 minutes; its photos drawn on the other core). Dev only: torch, the `train` extra.
train: venv
	$(BIN)/pip install -q -e '.[train]'
	$(BIN)/python -m bench.learn.train_embed models/networks/face-embed.onnx --minutes 45 --threads 1 & \
	$(BIN)/python -m bench.learn.train_finder models/networks/dice-finder.onnx --minutes 45 --threads 1 --pool 10000; \
	wait
	$(BIN)/python -m bench.learn.train_refiner models/networks/die-refiner.onnx --minutes 40 --threads 1

## Train the Sepulchre piece finder: 600 boards drawn on both cores (an hour), then 55 minutes' training.
## Dev only: torch, the `train` extra.
train-pieces: venv
	$(BIN)/pip install -q -e '.[train]'
	$(BIN)/python -m bench.learn.piece_boards build/piece-boards --boards 1000 --workers 2
	$(BIN)/python -m bench.learn.train_piece_finder models/networks/piece-finder.onnx --boards build/piece-boards --minutes 55 --threads 2
	$(BIN)/python -m bench.learn.train_piece_finder models/networks/piece-finder.onnx --boards build/piece-boards --start-from models/networks/piece-finder.onnx --lr 1e-3 --resize 0.94,1.07 --minutes 35 --threads 2
	$(BIN)/python -m bench.learn.train_piece_finder models/networks/piece-finder.onnx --boards build/piece-boards --start-from models/networks/piece-finder.onnx --lr 1e-3 --resize 0.94,1.07 --minutes 45 --threads 2

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .hypothesis

## Regenerate the rendered photo sets: dice and Sepulchre boards (OpenCV only; see bench/render/)
photo-sets: venv
	$(BIN)/python -m bench.render.render bench/data/dice/dev --photos 10 --seed 200 --style 0 --enroll 8 --colouring black
	$(BIN)/python -m bench.render.render bench/data/dice/heldout --photos 5 --seed 900 --style 1 --enroll 8 --colouring ivory
	$(BIN)/python -m bench.render.render bench/data/dice/tablecloths --photos 8 --seed 2000 --style 0 --enroll 4 --colouring red --tables contours wood gingham
	$(BIN)/python -m bench.render.pieces_scene bench/data/pieces/dev --photos 8 --seed 300 --enroll 12
	@echo 'bench/data/dice/blender* need Blender: see bench/render/blender_dice.py and docs/vision.md (blender: --photos 12 --seed 100 --enroll 4 --samples 20; blender-ivory: --photos 4 --seed 300 --enroll 3 --style 1 --colouring ivory; blender-style2: --photos 4 --seed 700 --enroll 3 --style 2; blender-table: --photos 4 --seed 1500 --enroll 3 --style 2 --colouring black --table-camera; blender-framed: --photos 4 --seed 1100 --enroll 3 --style 3 --samples 20; blender-diagonal: --photos 4 --seed 1300 --enroll 3 --style 4 --samples 20)'
	$(BIN)/python -m bench.render.pieces_scene bench/data/pieces/heldout --photos 4 --seed 700 --enroll 12
	$(BIN)/python -m bench.render.pieces_scene bench/data/pieces/tilted --photos 8 --seed 900 --enroll 12 --tilt
	$(BIN)/python -m bench.render.pieces_scene bench/data/pieces/touching --photos 8 --seed 1100 --enroll 12 --touching 4
	$(BIN)/python -m bench.render.pieces_scene bench/data/pieces/printed --photos 8 --seed 1300 --enroll 12 --tilt --printed cream --glare
	$(BIN)/python -m bench.render.pieces_scene bench/data/pieces/printed-white --photos 8 --seed 1500 --enroll 12 --tilt --printed white --glare
	$(BIN)/python -m bench.render.pieces_scene bench/data/pieces/printed-night --photos 8 --seed 1700 --enroll 12 --tilt --printed night --glare
