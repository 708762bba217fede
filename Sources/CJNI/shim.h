// The Java Native Interface: the NDK's sysroot on Android, a JDK's include/ on Linux
// (Package.swift passes its path).
#include <jni.h>
