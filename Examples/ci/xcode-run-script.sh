# Xcode "Run Script" build phase: lint the target and configuration being built, so its findings
# appear in Xcode's issue navigator and an error fails the build.
#
# Target > Build Phases > + > New Run Script Phase, placed before "Link Binary With Libraries";
# paste the lines below. `entitlint xcode` reads the build's settings from the environment
# (TARGET_NAME, CONFIGURATION, SRCROOT, PROJECT_FILE_PATH, CODE_SIGN_ENTITLEMENTS) and reports only
# the findings of this target in this configuration; it reads the whole project, so a rule that
# compares the target with its host app or its extensions sees them, and a per-configuration
# bundle ID stays per configuration.
#
# With "User Script Sandboxing" on (ENABLE_USER_SCRIPT_SANDBOXING, the default since Xcode 15), a
# script may read only the files listed as the phase's Input Files: list
#   $(SRCROOT)/$(CODE_SIGN_ENTITLEMENTS)
#   $(PROJECT_FILE_PATH)/project.pbxproj
# and, when the project has them, every .xcconfig its targets use, $(SRCROOT)/.entitlint.yml and
# $(SRCROOT)/entitlint.lock. Or turn sandboxing off for this phase's target.
if ! command -v entitlint >/dev/null 2>&1; then
    echo "warning: entitlint is not installed (see the Entitlint README: Install and first run)"
    exit 0
fi
entitlint xcode
