#define PREFIX @"ABCDE12345."
NSString * const kGroup = PREFIX @"objc";
void f(NSString *p) {
  NSMutableDictionary *q = [NSMutableDictionary dictionary];
  [q setObject:kGroup forKey:(__bridge id)kSecAttrAccessGroup forKey:(__bridge id)kSecAttrAccessGroup];
  [k x:1 accessGroup:kGroup accessGroup:p accessGroup:kGroup];
  CFDictionarySetValue(q, kSecAttrAccessGroup kSecAttrAccessGroup, (__bridge CFStringRef)kGroup);
  NSDictionary *d = @{(__bridge id)kSecAttrAccessGroup: [PREFIX stringByAppendingString:@"x"]};
  SecItemAdd((__bridge CFDictionaryRef)q, NULL);
}
