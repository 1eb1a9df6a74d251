#!/usr/bin/env bash
T=/tmp/gct; mkdir -p $T; xz -dc .devviewer/viewer.tar.xz | tar -x -C $T
date -u
BIN=.devref/bin LIB=$T/viewer/lib DEADLINE=560 bash bench/hermite_device.sh h4 h4big
date -u
