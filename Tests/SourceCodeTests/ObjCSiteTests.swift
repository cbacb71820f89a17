import XCTest
import SourceCode

final class ObjCSiteTests: XCTestCase {
    func testDictionaryLiteralWithADefinedGroup() {
        let file = """
        #define kGroup @"ABCDE12345.com.example.objc"
        #define kLong \\
            @"ABCDE12345.continued"
        #if DEBUG
        #define kPrefixed kPrefix @".suffix"
        #else
        #define kPrefixed kPrefix @".other"
        #endif
        - (void)save {
            NSDictionary *query = @{ (__bridge id)kSecClass: (__bridge id)kSecClassGenericPassword,
                                     (__bridge id)kSecAttrAccessGroup: kGroup };
            SecItemAdd((__bridge CFDictionaryRef)query, NULL);
        }
        """
        let scanned = scan(file, .objectiveC)
        XCTAssertEqual(scanned.definitions.map(\.path), [["kGroup"], ["kLong"], ["kPrefixed"], ["kPrefixed"]])
        XCTAssertEqual(scanned.definitions[1].value, .literal("ABCDE12345.continued"))
        XCTAssertEqual(scanned.definitions[2].value, .concatenation([.reference(["kPrefix"]), .literal(".suffix")]))
        XCTAssertEqual(scanned.groups, [KeychainGroupSite(line: 11, column: 43, api: "kSecAttrAccessGroup", value: .reference(["kGroup"]))])
        XCTAssertEqual(scanned.saves, [])
        XCTAssertEqual(resolveGroups([("K.m", file)]).map(\.value), ["ABCDE12345.com.example.objc"])
    }

    func testCFDictionarySetValueSetObjectAndSubscripts() {
        let file = """
        static NSString *const kShared = @"ABCDE12345.shared";
        FOUNDATION_EXPORT NSString * const kDeclaredOnly;
        void add(CFMutableDictionaryRef d) {
            CFDictionarySetValue(d, kSecAttrAccessGroup, CFSTR("ABCDE12345.cf"));
            CFDictionaryAddValue(d, kSecAttrAccessGroup, kShared);
        }
        - (void)m:(NSMutableDictionary *)dict {
            [dict setObject:@"ABCDE12345.objc" forKey:(__bridge id)kSecAttrAccessGroup];
            dict[(__bridge id)kSecAttrAccessGroup] = [NSString stringWithFormat:@"%@.com.example", kPrefix];
            NSString *group = [[[NSBundle mainBundle] infoDictionary] objectForKey:@"Group"];
            dict[(__bridge id)kSecAttrAccessGroup] = [group stringByAppendingString:@".x"];
        }
        """
        let scanned = scan(file, .objectiveC)
        XCTAssertEqual(scanned.definitions.filter { $0.scope == nil }.map(\.path), [["kShared"]])
        XCTAssertEqual(scanned.groups.map(\.value), [
            .literal("ABCDE12345.cf"), .reference(["kShared"]), .literal("ABCDE12345.objc"),
            .concatenation([.reference(["kPrefix"]), .literal(".com.example")]),
            .concatenation([.reference(["group"]), .literal(".x")]),
        ])
        let resolved = resolveGroups([("C.m", file)], infoPlist: ["Group": "ABCDE12345.plist"])
        XCTAssertEqual(resolved.map(\.value), ["ABCDE12345.cf", "ABCDE12345.shared", "ABCDE12345.objc", nil, "ABCDE12345.plist.x"])
        XCTAssertEqual(resolved[3].unknown, "part 1 is unknown: no definition of kPrefix found")
    }

    func testInfoPlistFormsInObjectiveC() {
        let file = """
        NSString *const a = [[NSBundle mainBundle] objectForInfoDictionaryKey:@"A"];
        NSString *const b = [NSBundle mainBundle].infoDictionary[@"B"];
        NSString *const c = [[NSBundle bundleForClass:[self class]] infoDictionary][@"C"];
        """
        XCTAssertEqual(scan(file, .objectiveC).definitions.map(\.value), [.infoPlist(key: "A"), .infoPlist(key: "B"), .infoPlist(key: "C")])
    }

    func testMessagesDeclarationsAndMSAL() {
        let file = """
        @interface Store : NSObject
        - (instancetype)initWithService:(NSString *)service accessGroup:(NSString *)group;
        @end
        @implementation Store
        - (instancetype)initWithService:(NSString *)service accessGroup:(NSString *)group {
            _store = [UICKeyChainStore keyChainStoreWithService:service accessGroup:group];
            return self;
        }
        - (void)setUp {
            UICKeyChainStore *s = [UICKeyChainStore keyChainStoreWithService:@"s" accessGroup:@"ABCDE12345.uic"];
            MSALLegacySharedAccountsProvider *p = [[MSALLegacySharedAccountsProvider alloc] initWithSharedKeychainAccessGroup:@"com.microsoft.adalcache" serviceIdentifier:@"x" applicationIdentifier:@"y"];
            config.cacheConfig.keychainSharingGroup = @"com.example.msal";
            self.accessGroup = @"own";
        }
        @end
        """
        let groups = scan(file, .objectiveC).groups
        XCTAssertEqual(groups.map(\.line), [6, 10, 11, 12])
        XCTAssertEqual(groups.map(\.api), ["UICKeyChainStore accessGroup:", "UICKeyChainStore accessGroup:",
                                           "MSAL initWithSharedKeychainAccessGroup:", "MSAL keychainSharingGroup"])
        XCTAssertEqual(groups.map(\.value), [.unknown("parameter group"), .literal("ABCDE12345.uic"),
                                             .literal("com.microsoft.adalcache"), .literal("com.example.msal")])
    }

    func testSecItemAddInObjectiveC() {
        let file = """
        - (void)plain {
            NSMutableDictionary *q = [NSMutableDictionary dictionary];
            q[(__bridge id)kSecClass] = (__bridge id)kSecClassGenericPassword;
            q[(__bridge id)kSecUseDataProtectionKeychain] = @YES;
            SecItemAdd((__bridge CFDictionaryRef)q, NULL);
        }
        - (void)grouped {
            NSMutableDictionary *q = [@{(__bridge id)kSecAttrAccessGroup: @"ABCDE12345.g"} mutableCopy];
            SecItemAdd((__bridge CFDictionaryRef)q, NULL);
        }
        - (void)elsewhere:(NSDictionary *)q {
            SecItemAdd((__bridge CFDictionaryRef)q, NULL);
        }
        """
        XCTAssertEqual(scan(file, .objectiveC).saves, [KeychainSaveSite(line: 5, column: 5, api: "SecItemAdd", dataProtectionKeychain: true)])
    }

    func testCommentsStringsAndCharactersDoNotMakeSites() {
        let file = """
        // [d setObject:@"x" forKey:(__bridge id)kSecAttrAccessGroup];
        /* CFDictionarySetValue(d, kSecAttrAccessGroup, CFSTR("y")); */
        NSString *const s = @"kSecAttrAccessGroup: accessGroup:";
        char c = '"'; NSString *const t = @"after";
        """
        let scanned = scan(file, .objectiveC)
        XCTAssertEqual(scanned.groups, [])
        XCTAssertEqual(scanned.definitions.map(\.value), [.literal("kSecAttrAccessGroup: accessGroup:"), .literal("after")])
    }

    /// A C file: a `#define` chain across a header, `CFSTR`, adjacent literals joined.
    func testACFileWithADefineChainAndCFSTR() {
        let header = """
        #define TEAM_PREFIX "ABCDE12345"
        #define SHARED_GROUP TEAM_PREFIX ".com.example" ".shared"
        """
        let file = """
        #include "Keys.h"
        void save(CFDataRef data) {
            CFMutableDictionaryRef query = CFDictionaryCreateMutable(NULL, 0, NULL, NULL);
            CFDictionarySetValue(query, kSecAttrAccessGroup, CFSTR(SHARED_GROUP));
            CFDictionarySetValue(query, kSecAttrAccessGroup, CFSTR("ABCDE12345.literal"));
            CFDictionarySetValue(query, kSecAttrAccessGroup, group_from_caller);
        }
        """
        XCTAssertEqual(SourceLanguage(path: "Keys.c"), .objectiveC)
        let resolved = resolveGroups([("Keys.h", header), ("Keys.c", file)])
        XCTAssertEqual(resolved.map(\.value), ["ABCDE12345.com.example.shared", "ABCDE12345.literal", nil])
    }
}
