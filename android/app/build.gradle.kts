// The Android shell of ilo toki: it draws Core's screen values and sends actions through
// NativeBridge; the logic, the model store and llama.cpp live in libIloTokiJNI.so, which
// scripts/build-android.sh builds (Swift SDK for Android, NDK) before Gradle packages it.
plugins {
    id("com.android.application")
    id("org.jetbrains.kotlin.android")
    id("org.jetbrains.kotlin.plugin.compose")
}

val repositoryRoot = rootProject.projectDir.parentFile

android {
    namespace = "org.ilotoki.android"
    compileSdk = 35
    // NDK r27 or newer: its linker aligns to 16 KB pages, which Android 15 devices may use.
    ndkVersion = "27.2.12479018"

    defaultConfig {
        applicationId = "org.ilotoki.IloToki"
        // The Swift SDK for Android targets API 28 (aarch64-unknown-linux-android28).
        minSdk = 28
        targetSdk = 35
        versionCode = 1
        versionName = "0.1.0"
        ndk { abiFilters += listOf("arm64-v8a") }
    }

    buildTypes {
        release {
            isMinifyEnabled = false
        }
    }
    compileOptions {
        sourceCompatibility = JavaVersion.VERSION_17
        targetCompatibility = JavaVersion.VERSION_17
    }
    kotlinOptions { jvmTarget = "17" }
    buildFeatures { compose = true }

    sourceSets["main"].apply {
        // libIloTokiJNI.so, the Swift runtime and libc++_shared.so, from scripts/build-android.sh.
        jniLibs.srcDir(File(repositoryRoot, "build/android/jniLibs"))
        // Space Grotesk and the sitelen pona font, from scripts/fetch-fonts.sh (PyPI).
        assets.srcDir(File(repositoryRoot, "build/android/assets"))
    }
    packaging {
        // Stored uncompressed and page-aligned in the APK, loaded in place.
        jniLibs.useLegacyPackaging = false
    }
}

// The native libraries and the fonts, before anything is packaged.
val buildNative by tasks.registering(Exec::class) {
    workingDir = repositoryRoot
    commandLine("./scripts/build-android.sh")
}
tasks.named("preBuild") { dependsOn(buildNative) }

dependencies {
    implementation(platform("androidx.compose:compose-bom:2024.12.01"))
    implementation("androidx.compose.foundation:foundation")
    implementation("androidx.compose.ui:ui")
    implementation("androidx.activity:activity-compose:1.9.3")
    implementation("androidx.core:core-ktx:1.15.0")
}
