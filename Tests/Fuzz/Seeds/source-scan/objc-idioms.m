#define kGroup @"ABCDE12345.x"
- (void)m:(NSString *)p {
  NSMutableDictionary *q = [@{(__bridge id)kSecAttrAccessGroup: kGroup} mutableCopy];
  CFDictionarySetValue(d, kSecAttrAccessGroup, CFSTR("y"));
  SecItemAdd((__bridge CFDictionaryRef)q, NULL);
}
