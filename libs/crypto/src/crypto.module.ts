import { Global, Module } from '@nestjs/common';
import { APP_CONFIG, type AppConfig } from '@gatehouse/config';
import { KeyEncryptor } from './key-encryptor.js';
import { SecretHasher } from './secret-hasher.js';

@Global()
@Module({
  providers: [
    { provide: SecretHasher, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new SecretHasher(c.secretPepper) },
    { provide: KeyEncryptor, inject: [APP_CONFIG], useFactory: (c: AppConfig) => new KeyEncryptor(c.keyEncryptionKey) },
  ],
  exports: [SecretHasher, KeyEncryptor],
})
export class CryptoModule {}
